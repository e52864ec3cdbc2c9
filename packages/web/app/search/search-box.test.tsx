import type { DriveAssociate, DriveAssociateList, Locale } from '@cumulus/protocol'
import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { aFile, aFolder, FakeDriveApi } from '../drive/fake-drive-api'
import en from '../locales/en-US/index'
import zhCN from '../locales/zh-CN/index'
import { writeRecentSearches } from './recent-searches'
import { SearchBox } from './search-box'
import { SUGGEST_DELAY_MS } from './use-suggestions'

const texts = en.drive.search

function show(api: Pick<FakeDriveApi, 'associate'>, { accountId = 'u1', query = '', locale = 'en-US' }: { accountId?: string; query?: string; locale?: Locale } = {}) {
  const onSearch = vi.fn<(query: string) => void>()
  const onChoose = vi.fn<(suggestion: DriveAssociate) => void>()
  const view = renderPage(<SearchBox api={api} accountId={accountId} query={query} onSearch={onSearch} onChoose={onChoose} />, { locale })
  const box = screen.getByRole('combobox')
  return { view, box, onSearch, onChoose }
}

async function type(box: HTMLElement, text: string) {
  fireEvent.change(box, { target: { value: text } })
  await act(() => vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS))
}

const key = (box: HTMLElement, name: string) => fireEvent.keyDown(box, { key: name })
const options = () => screen.queryAllByRole('option')
const listbox = () => screen.getByRole('listbox', { hidden: true })

function library() {
  const reports = aFolder({ name: 'Reports' })
  return new FakeDriveApi([reports, aFile({ name: 'Quarterly report.pdf', parent_id: reports.id }), aFile({ name: 'quiz.txt' }), aFile({ name: 'notes.txt' })])
}

beforeEach(() => {
  vi.useFakeTimers()
  localStorage.clear()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('SearchBox', () => {
  it('asks for suggestions a pause after the typing, once, and shows each with its icon, highlight and folder', async () => {
    const api = library()
    const { box } = show(api)
    fireEvent.change(box, { target: { value: 'q' } })
    fireEvent.change(box, { target: { value: 'qu' } })
    await act(() => vi.advanceTimersByTimeAsync(SUGGEST_DELAY_MS - 1))
    expect(api.callsOf('associate')).toEqual([])
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(api.callsOf('associate')).toEqual([['qu', { limit: 10 }]])

    // The combobox pattern: expanded, controlling the listbox, nothing active yet.
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(box.getAttribute('aria-controls')).toBe(listbox().id)
    expect(box.hasAttribute('aria-activedescendant')).toBe(false)
    expect(options().map((option) => option.textContent)).toEqual(['Quarterly report.pdfReports', 'quiz.txtMy drive'])
    expect([...options()[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Qu'])
    expect(options()[0]!.querySelector('svg')).not.toBeNull()
    expect(screen.getByRole('status').textContent).toBe('2 suggestions')
  })

  it('moves through the suggestions with the arrow keys and opens the highlighted one with Enter', async () => {
    const { box, onChoose, onSearch } = show(library())
    await type(box, 'qu')
    key(box, 'ArrowDown')
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[0]!.id)
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true')
    key(box, 'ArrowDown')
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[1]!.id)
    key(box, 'ArrowDown')
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[0]!.id)
    key(box, 'ArrowUp')
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[1]!.id)
    key(box, 'Enter')
    expect(onChoose).toHaveBeenCalledTimes(1)
    expect(onChoose.mock.calls[0]![0]).toMatchObject({ text: 'quiz.txt', kind: 'drive#file', path: '/' })
    expect(onSearch).not.toHaveBeenCalled()
    expect(box.getAttribute('aria-expanded')).toBe('false')
  })

  it('runs the full search on Enter with nothing highlighted, and remembers it', async () => {
    const { box, onSearch, onChoose } = show(library())
    await type(box, '  quarterly  ')
    fireEvent.submit(box.closest('form')!)
    expect(onSearch).toHaveBeenCalledWith('quarterly')
    expect(onChoose).not.toHaveBeenCalled()
    expect(JSON.parse(localStorage.getItem('cumulus-recent-searches:u1')!)).toEqual(['quarterly'])
  })

  it('closes with Escape, then clears the box with a second Escape', async () => {
    const { box } = show(library())
    await type(box, 'qu')
    key(box, 'ArrowDown')
    key(box, 'Escape')
    expect(box.getAttribute('aria-expanded')).toBe('false')
    expect(box.hasAttribute('aria-activedescendant')).toBe(false)
    expect((box as HTMLInputElement).value).toBe('qu')
    key(box, 'Escape')
    expect((box as HTMLInputElement).value).toBe('')
    // Down opens the list again, on its first option.
    await type(box, 'qu')
    key(box, 'Escape')
    key(box, 'ArrowDown')
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[0]!.id)
  })

  it('shows only the latest query’s reply: a slow answer to an earlier query is dropped', async () => {
    const pending = new Map<string, (reply: DriveAssociateList) => void>()
    const api = { associate: vi.fn((q: string) => new Promise<DriveAssociateList>((resolve) => pending.set(q, resolve))) }
    const suggestion = (text: string): DriveAssociate => ({ text, highlight: [[0, 1]], file_id: `id-${text}`, kind: 'drive#file', file_category: 'OTHER', path: '/', match: 'prefix' })
    const { box } = show(api)
    await type(box, 'r')
    await type(box, 're')
    expect(api.associate.mock.calls.map(([q]) => q)).toEqual(['r', 're'])
    await act(async () => pending.get('re')!({ associates: [suggestion('report.pdf')] }))
    expect(options().map((option) => option.textContent)).toEqual(['report.pdfMy drive'])
    await act(async () => pending.get('r')!({ associates: [suggestion('readme.md'), suggestion('recipes')] }))
    expect(options().map((option) => option.textContent)).toEqual(['report.pdfMy drive'])
  })

  it('says when nothing matches, and when suggestions could not be loaded', async () => {
    const api = library()
    const { box } = show(api)
    await type(box, 'zzz')
    const popup = screen.getByTestId('search-popup')
    expect(within(popup).getByText(texts.noSuggestions)).toBeDefined()
    expect(box.getAttribute('aria-expanded')).toBe('false')
    api.associate = () => Promise.reject(new Error('offline'))
    await type(box, 'zzzz')
    expect(within(popup).getByText(texts.suggestionsFailed)).toBeDefined()
  })

  it('offers the account’s recent searches when focused empty; one runs again, and Clear forgets them', async () => {
    writeRecentSearches(localStorage, 'u1', ['zg', 'holiday'])
    writeRecentSearches(localStorage, 'u2', ['someone else'])
    const api = library()
    const { box, onSearch } = show(api)
    fireEvent.focus(box)
    const list = screen.getByRole('listbox', { name: texts.recent })
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual(['zg', 'holiday'])
    key(box, 'ArrowDown')
    key(box, 'ArrowDown')
    key(box, 'Enter')
    expect(onSearch).toHaveBeenCalledWith('holiday')
    expect(JSON.parse(localStorage.getItem('cumulus-recent-searches:u1')!)).toEqual(['holiday', 'zg'])
    expect(api.callsOf('associate')).toEqual([])

    fireEvent.change(box, { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: texts.clearRecent }))
    expect(options()).toEqual([])
    expect(localStorage.getItem('cumulus-recent-searches:u1')).toBeNull()
    expect(localStorage.getItem('cumulus-recent-searches:u2')).not.toBeNull()
  })

  it('opens a suggestion with a click, keeping the focus in the box until then', async () => {
    const { box, onChoose } = show(library())
    await type(box, 'rep')
    const option = options().find((item) => item.textContent?.startsWith('Quarterly report.pdf'))!
    expect(fireEvent.mouseDown(option)).toBe(false)
    fireEvent.click(option)
    expect(onChoose.mock.calls[0]![0]).toMatchObject({ text: 'Quarterly report.pdf', path: '/Reports', match: 'word' })
  })

  it('speaks the page’s language and shows the page’s query', () => {
    const { box } = show(library(), { locale: 'zh-CN', query: '中国' })
    expect((box as HTMLInputElement).value).toBe('中国')
    expect(screen.getByRole('search', { name: zhCN.drive.search.label })).toBeDefined()
    expect(box.getAttribute('placeholder')).toBe(zhCN.drive.search.placeholder)
  })
})
