import { DriveErrors } from '@cumulus/protocol'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { useLocation, useParams } from 'react-router'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import { DriveProvider } from '../drive/drive-context'
import { DrivePage } from '../drive/drive-page'
import { aFile, aFolder, driveError, FakeDriveApi } from '../drive/fake-drive-api'
import en from '../locales/en-US/index'
import { useSearchRequest } from './drive-search'

const texts = en.drive.search

/** The results page as its route renders it: the query and filters from the URL. */
function ResultsPage() {
  return <DrivePage view="search" accountId="u1" search={useSearchRequest()} />
}

function FolderPage() {
  const { folderId = '' } = useParams()
  return <DrivePage view="folder" folderId={folderId} accountId="u1" />
}

/** Where the page went, for assertions on navigation. */
function Where() {
  const location = useLocation()
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>
}

function show(api: FakeDriveApi, search: string) {
  return renderPage(
    <DriveProvider api={api}>
      <ResultsPage />
      <Where />
    </DriveProvider>,
    {
      path: '/search/associate',
      search,
      routes: {
        '/drive/:folderId': (
          <DriveProvider api={api}>
            <FolderPage />
            <Where />
          </DriveProvider>
        ),
      },
    },
  )
}

const rows = () => screen.queryAllByTestId('drive-row')
const rowNames = () => rows().map((r) => r.dataset.name)
const row = (name: string) => rows().find((r) => r.dataset.name === name)!

function library() {
  const reports = aFolder({ name: 'Reports' })
  const year = aFolder({ name: '2024', parent_id: reports.id })
  const quarterly = aFile({ name: 'Quarterly report.pdf', parent_id: year.id, file_category: 'TEXT' })
  const api = new FakeDriveApi([reports, year, quarterly, aFile({ name: 'report card.png', file_category: 'IMAGE' }), aFile({ name: 'notes.txt' })])
  return { api, reports, year, quarterly }
}

describe('the search results page', () => {
  it('lists the results in the server’s order, each with its folder as a link, and counts them', async () => {
    const { api, year, quarterly } = library()
    show(api, '?q=report')
    await waitFor(() => expect(rowNames()).toEqual(['report card.png', 'Reports', 'Quarterly report.pdf']))
    expect(api.callsOf('search')).toEqual([[{ q: 'report', limit: 100 }]])
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Results for “report”')
    expect(screen.getByTestId('item-count').textContent).toBe('3 results')
    const location = within(row('Quarterly report.pdf')).getByRole('link')
    expect(location.textContent).toBe('Reports / 2024')
    expect(location.getAttribute('href')).toBe(`/drive/${year.id}?select=${quarterly.id}`)
    expect(within(row('report card.png')).getByRole('link').textContent).toBe('My drive')
    // The columns do not sort: the order is the ranking.
    expect(within(screen.getByTestId('drive-grid')).queryByRole('button', { name: /Name/ })).toBeNull()
    expect(screen.queryByTestId('sort-menu')).toBeNull()
    // The box in the bar says the query.
    expect((screen.getByTestId('search-input') as HTMLInputElement).value).toBe('report')
  })

  it('filters by type and category through the URL, and offers to clear filters that leave nothing', async () => {
    const { api } = library()
    show(api, '?q=report')
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.change(screen.getByLabelText(texts.filters.kind.label), { target: { value: 'folder' } })
    await waitFor(() => expect(rowNames()).toEqual(['Reports']))
    expect(screen.getByTestId('where').textContent).toBe('/search/associate?q=report&kind=folder')
    expect(api.callsOf('search').at(-1)).toEqual([{ q: 'report', limit: 100, filters: { kind: { eq: 'drive#folder' } } }])

    fireEvent.change(screen.getByLabelText(texts.filters.category.label), { target: { value: 'VIDEO' } })
    expect(await screen.findByText(texts.emptyFiltered)).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: texts.clearFilters }))
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(screen.getByTestId('where').textContent).toBe('/search/associate?q=report')
  })

  it('says when nothing matches, and asks for a query when there is none', async () => {
    const { api } = library()
    const view = show(api, '?q=zzz')
    expect(await screen.findByText('Nothing matches “zzz”')).toBeDefined()
    expect(screen.getByText(texts.emptyText)).toBeDefined()
    expect(screen.queryByRole('button', { name: texts.clearFilters })).toBeNull()
    view.unmount()
    show(api, '')
    expect(await screen.findByTestId('search-idle')).toBeDefined()
    // An empty query is not sent (the server refuses it).
    expect(api.callsOf('search')).toEqual([[{ q: 'zzz', limit: 100 }]])
  })

  it('shows a failed search with its reason and searches again on Try again', async () => {
    const { api } = library()
    api.failures.set('search', driveError(DriveErrors.file_not_found))
    show(api, '?q=notes')
    expect(await screen.findByText(en.drive.list.loadFailed)).toBeDefined()
    await userEvent.click(screen.getByRole('button', { name: en.drive.list.retry }))
    await waitFor(() => expect(rowNames()).toEqual(['notes.txt']))
  })

  it('asks for the next page as the list nears its end (next_page_token)', async () => {
    const many = Array.from({ length: 150 }, (_, i) => aFile({ name: `scan ${String(i).padStart(3, '0')}.jpg` }))
    const api = new FakeDriveApi(many)
    show(api, '?q=scan')
    await waitFor(() => expect(api.callsOf('search')).toHaveLength(1))
    expect(await screen.findByTestId('item-count')).toBeDefined()
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('100 or more results'))
    expect(api.callsOf('search')).toHaveLength(1)
    // Scrolled near the end of what is loaded (happy-dom has no layout: the list's box is moved up).
    const box = screen.getByRole('grid').querySelectorAll('[role="rowgroup"]')[1] as HTMLElement
    box.getBoundingClientRect = () => ({ top: -56 * 90, bottom: 0, left: 0, right: 0, width: 0, height: 0, x: 0, y: 0, toJSON: () => ({}) })
    fireEvent.scroll(window)
    await waitFor(() => expect(api.callsOf('search').map(([input]) => (input as { pageToken?: string }).pageToken)).toEqual([undefined, '100']))
    await waitFor(() => expect(screen.getByTestId('item-count').textContent).toBe('150 results'))
  })

  it('renames a result from its row menu, keeping it in place with its folder', async () => {
    const { api } = library()
    show(api, '?q=report')
    await waitFor(() => expect(rows()).toHaveLength(3))
    await userEvent.click(within(row('Quarterly report.pdf')).getByTestId('row-menu'))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Preview', 'Show in folder', 'Download', 'Share', 'Rename', 'Move to…', 'Copy to…', 'Add to Starred', 'Move to trash'])
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Rename' }))
    const field = await screen.findByLabelText(en.drive.names.rename.label)
    await userEvent.clear(field)
    await userEvent.type(field, 'Annual report.pdf{Enter}')
    await waitFor(() => expect(rowNames()).toEqual(['report card.png', 'Reports', 'Annual report.pdf']))
    expect(within(row('Annual report.pdf')).getByRole('link').textContent).toBe('Reports / 2024')
  })

  it('Show in folder opens the folder with the result selected and focused', async () => {
    const { api, year } = library()
    for (let i = 0; i < 30; i += 1) api.files.set(`pad${i}`, aFile({ name: `a${String(i).padStart(2, '0')}.txt`, parent_id: year.id }))
    show(api, '?q=quarterly')
    await waitFor(() => expect(rowNames()).toEqual(['Quarterly report.pdf']))
    await userEvent.click(within(row('Quarterly report.pdf')).getByTestId('row-menu'))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Show in folder' }))
    await waitFor(() => expect(row('Quarterly report.pdf')?.getAttribute('aria-selected')).toBe('true'))
    // The item is named in the URL only until it is selected (Back and reload do not select it again).
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/drive/${year.id}`))
    expect(document.activeElement).toBe(row('Quarterly report.pdf'))
    expect(screen.getByTestId('selection-count').textContent).toBe('1 selected')
  })
})

describe('the search box in the drive’s bar', () => {
  function showFolder(api: FakeDriveApi) {
    const page = (ui: ReactNode) => (
      <DriveProvider api={api}>
        {ui}
        <Where />
      </DriveProvider>
    )
    return renderPage(page(<FolderPage />), { path: '/drive', routes: { '/drive/:folderId': page(<FolderPage />), '/search/associate': page(<ResultsPage />) } })
  }

  it('runs the full search on Enter: the results page with the query', async () => {
    const { api } = library()
    showFolder(api)
    await waitFor(() => expect(rows().length).toBeGreaterThan(0))
    await userEvent.type(screen.getByTestId('search-input'), 'report{Enter}')
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/search/associate?q=report'))
    await waitFor(() => expect(rowNames()).toEqual(['report card.png', 'Reports', 'Quarterly report.pdf']))
  })

  it('opens a folder suggestion, and a file suggestion’s folder with the file selected', async () => {
    const { api, reports, year } = library()
    showFolder(api)
    const box = screen.getByTestId('search-input')
    await userEvent.type(box, 'quart')
    await waitFor(() => expect(screen.getAllByTestId('search-suggestion').map((option) => option.textContent)).toEqual(['Quarterly report.pdfReports / 2024']))
    await userEvent.keyboard('{ArrowDown}{Enter}')
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/drive/${year.id}`))
    await waitFor(() => expect(row('Quarterly report.pdf').getAttribute('aria-selected')).toBe('true'))

    await userEvent.clear(screen.getByTestId('search-input'))
    await userEvent.type(screen.getByTestId('search-input'), 'Reports')
    await waitFor(() => expect(screen.getAllByTestId('search-suggestion')[0]!.textContent).toBe('ReportsMy drive'))
    await userEvent.click(screen.getAllByTestId('search-suggestion')[0]!)
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/drive/${reports.id}`))
  })
})
