import type { DriveTask, RestoreShareReply, ShareDetailReply, ShareInfoReply, ShareStatus } from '@cumulus/protocol'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { fakeIdentityService } from '../components/auth/testing/fake-identity-service'
import { aFile, aFolder } from '../drive/fake-drive-api'
import en from '../locales/en-US/index'
import ko from '../locales/ko/index'
import zhCN from '../locales/zh-CN/index'
import { loadLocaleMessages } from '../i18n/messages'
import { refreshSession } from '../session/session-store'
import { findPassCodeToken } from './pass-code-token'
import type { SharePageApi } from './share-api'
import { SharePage } from './share-page'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))

const SHARE = 'sh-42'
const CODE = 'k3y9'
const TOKEN = 'token-of-k3y9'
const texts = en.sharePage

const notes = aFile({ name: 'notes.txt', size: '2048', web_content_link: '/drive/v1/content/notes?s=1' })
const photos = aFolder({ name: 'photos' })
const beach = aFile({ name: 'beach.png', size: '4096', parent_id: photos.id })

function info(overrides: Partial<ShareInfoReply> = {}): ShareInfoReply {
  return {
    share_status: 'OK',
    share_status_text: '',
    share_id: SHARE,
    pass_code_token: '',
    title: 'Holiday',
    file_num: '2',
    expiration_at: null,
    restore_count_left: '-1',
    user_info: { user_id: 'u-ann', nickname: 'Ann', avatar: '' },
    files: [photos, notes],
    next_page_token: '',
    ...overrides,
  }
}

const refused = (status: ShareStatus, text: string): ShareInfoReply => ({ ...info({ files: [], title: '', file_num: '0' }), share_status: status, share_status_text: text })

/** A share behind CODE: the code once, its token after. */
function fakeApi(overrides: Partial<SharePageApi> = {}) {
  const api = {
    openShare: vi.fn<SharePageApi['openShare']>(async (input) => {
      if (input.passCodeToken === TOKEN) return info()
      if (input.passCode === undefined) return refused('PASS_CODE_EMPTY', 'Enter the pass code to open this share.')
      if (input.passCode !== CODE) return refused('PASS_CODE_ERROR', 'The pass code is wrong.')
      return info({ pass_code_token: TOKEN })
    }),
    shareFolder: vi.fn<SharePageApi['shareFolder']>(async (input): Promise<ShareDetailReply> => ({ share_status: 'OK', share_status_text: '', files: input.parentId === photos.id ? [beach] : [], next_page_token: '' })),
    shareFile: vi.fn<SharePageApi['shareFile']>(async () => ({ share_status: 'OK', share_status_text: '', file_info: notes })),
    restoreShare: vi.fn<SharePageApi['restoreShare']>(async (): Promise<RestoreShareReply> => ({ share_status: 'OK', share_status_text: '', restore_status: 'RESTORE_COMPLETE', restore_task_id: '', file_id: 'saved-folder' })),
    waitForTask: vi.fn<SharePageApi['waitForTask']>(async () => ({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 }) as DriveTask),
  }
  // Overrides are vi.fn()s or plain functions; the tests read `.mock` only of vi.fn()s.
  return Object.assign(api, overrides) as typeof api
}

async function showShare(api: SharePageApi, { signedIn = false, search = '', locale = 'en-US' as 'en-US' | 'zh-CN', routes = {} as Record<string, ReactNode> } = {}) {
  service.current = fakeIdentityService()
  if (signedIn) await service.current.client.signIn({ username: 'bob@example.com', password: 'correct horse' })
  await act(() => refreshSession(service.current!.client))
  return renderPage(<SharePage shareId={SHARE} preview={null} loadApi={async () => api} />, { locale, path: `/s/${SHARE}`, search, routes })
}

beforeEach(() => window.sessionStorage.clear())

describe('the share page', () => {
  it('asks for the pass code, requires one, shows the server’s refusal of a wrong one, then lists the share and keeps the token', async () => {
    const api = fakeApi()
    await showShare(api)
    const field = await screen.findByLabelText(texts.passCode.label)
    expect(document.activeElement).toBe(field)
    await userEvent.click(screen.getByRole('button', { name: texts.passCode.submit }))
    expect(screen.getByText(texts.passCode.required)).toBeDefined()

    await userEvent.type(field, 'nope')
    await userEvent.click(screen.getByRole('button', { name: texts.passCode.submit }))
    await screen.findByText('The pass code is wrong.')
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(field)

    await userEvent.clear(field)
    await userEvent.type(field, CODE)
    await userEvent.click(screen.getByRole('button', { name: texts.passCode.submit }))
    const table = await screen.findByRole('table', { name: texts.list.caption })
    expect(within(table).getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['photos', 'notes.txt'])
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Holiday')
    // The tab names the share once it is open.
    expect(document.title).toBe(`Holiday · ${en.common.appName}`)
    expect(screen.getByTestId('share-facts').textContent).toContain('Shared by Ann')
    expect(screen.getByTestId('share-facts').textContent).toContain(texts.neverExpires)
    expect(findPassCodeToken(SHARE)).toBe(TOKEN)
    expect(api.openShare.mock.calls.map(([input]) => input.passCode)).toEqual([undefined, 'nope', CODE])
  })

  it('opens with the code from the link (?pwd=), and later with the kept token alone', async () => {
    const api = fakeApi()
    const first = await showShare(api, { search: `?pwd=${CODE}` })
    await screen.findByRole('table', { name: texts.list.caption })
    expect(api.openShare).toHaveBeenCalledWith({ shareId: SHARE, passCode: CODE })
    first.unmount()

    const again = fakeApi()
    await showShare(again)
    await screen.findByRole('table', { name: texts.list.caption })
    expect(again.openShare).toHaveBeenCalledWith({ shareId: SHARE, passCodeToken: TOKEN })
  })

  it.each([
    ['EXPIRED', 'This share has expired.'],
    ['DELETED', 'The owner cancelled this share.'],
    ['NOT_FOUND', 'There is no such share.'],
  ] as const)('shows a %s share in the server’s words, with the way home', async (status, text) => {
    await showShare(fakeApi({ openShare: async () => refused(status, text) }))
    expect((await screen.findByTestId('share-status-text')).textContent).toBe(text)
    expect(screen.getByRole('heading', { level: 2, name: texts.unavailable.title })).toBeDefined()
    expect(screen.getByRole('link', { name: texts.backHome }).getAttribute('href')).toBe('/')
    expect(screen.queryByLabelText(texts.passCode.label)).toBeNull()
  })

  it('browses into a folder with the token and back through the breadcrumb without opening the share again', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    const api = fakeApi()
    await showShare(api)
    const table = await screen.findByRole('table', { name: texts.list.caption })
    await userEvent.click(within(table).getByRole('button', { name: 'photos' }))
    await waitFor(() => expect(screen.getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['beach.png']))
    expect(api.shareFolder).toHaveBeenCalledWith({ shareId: SHARE, parentId: photos.id, passCodeToken: TOKEN })
    const crumbs = screen.getByRole('navigation', { name: texts.breadcrumb })
    expect(crumbs.querySelector('[aria-current="page"]')?.textContent).toBe('photos')

    await userEvent.click(within(crumbs).getByRole('button', { name: texts.root }))
    await waitFor(() => expect(screen.getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['photos', 'notes.txt']))
    expect(api.openShare).toHaveBeenCalledTimes(1)
  })

  it('lists the next page on Show more, after the first', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    const more = aFile({ name: 'zebra.txt' })
    const api = fakeApi({
      openShare: vi.fn(async (input) => (input.pageToken === 'page-2' ? info({ files: [more] }) : info({ next_page_token: 'page-2' }))),
    })
    await showShare(api)
    await userEvent.click(await screen.findByRole('button', { name: texts.list.more }))
    await waitFor(() => expect(screen.getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['photos', 'notes.txt', 'zebra.txt']))
    expect(screen.queryByRole('button', { name: texts.list.more })).toBeNull()
    expect(api.openShare).toHaveBeenLastCalledWith({ shareId: SHARE, passCodeToken: TOKEN, pageToken: 'page-2' })
  })

  it('says so when the share is cancelled while the visitor browses it', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    await showShare(fakeApi({ shareFolder: async () => ({ share_status: 'DELETED', share_status_text: 'The owner cancelled this share.', files: [], next_page_token: '' }) }))
    await userEvent.click(await screen.findByRole('button', { name: 'photos' }))
    expect((await screen.findByTestId('share-status-text')).textContent).toBe('The owner cancelled this share.')
    expect(findPassCodeToken(SHARE)).toBeUndefined()
  })

  it('offers a direct download link for a listed file', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    await showShare(fakeApi())
    const link = await screen.findByRole('link', { name: 'Download notes.txt' })
    expect(link.getAttribute('href')).toBe('/drive/v1/content/notes?s=1')
    expect(link.getAttribute('download')).toBe('notes.txt')
  })

  it('sends a visitor without an account to sign in, coming back to the share', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    await showShare(fakeApi())
    const link = await screen.findByRole('link', { name: texts.save.signIn })
    expect(link.getAttribute('href')).toBe(`/account/login?redirect=${encodeURIComponent(`/s/${SHARE}`)}`)
  })

  it('comes back from signing in to the folder the visitor was in, with the items chosen there', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    const api = fakeApi({ shareFile: vi.fn(async () => ({ share_status: 'OK' as const, share_status_text: '', file_info: photos })) })
    await showShare(api, { routes: { '/account/login': <p>login page</p> } })
    await userEvent.click(await screen.findByRole('button', { name: 'photos' }))
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select beach.png' }))
    const link = screen.getByRole('link', { name: texts.save.signIn })
    const back = `/s/${SHARE}?path=${photos.id}`
    expect(link.getAttribute('href')).toBe(`/account/login?redirect=${encodeURIComponent(back)}`)
    await userEvent.click(link)
    await screen.findByText('login page')
    cleanup()

    // Signed in, the login page sends the visitor back to `back`: the same folder (named by the
    // server, as this page never listed its parent) with beach.png still chosen, ready to save.
    await showShare(api, { signedIn: true, search: `?path=${photos.id}` })
    await waitFor(() => expect(screen.getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['beach.png']))
    expect(screen.getByRole('navigation', { name: texts.breadcrumb }).querySelector('[aria-current="page"]')?.textContent).toBe('photos')
    expect(api.shareFile).toHaveBeenCalledWith({ shareId: SHARE, fileId: photos.id, passCodeToken: TOKEN })
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Select beach.png' }) as HTMLInputElement).checked).toBe(true))
    await userEvent.click(screen.getByRole('button', { name: 'Save 1 item to my drive' }))
    await waitFor(() => expect(api.restoreShare).toHaveBeenCalledWith({ shareId: SHARE, passCodeToken: TOKEN, fileIds: [beach.id], ancestorIds: [photos.id] }))
    // The choice was taken once: a later visit starts with none.
    cleanup()
    await showShare(api, { signedIn: true, search: `?path=${photos.id}` })
    await waitFor(() => expect(screen.getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['beach.png']))
    expect((screen.getByRole('checkbox', { name: 'Select beach.png' }) as HTMLInputElement).checked).toBe(false)
  })

  it('opens the top level for an address whose path is not a chain of the share’s folders', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    const inner = aFolder({ name: 'inner', parent_id: 'elsewhere' })
    const cases: [string, SharePageApi['shareFile']][] = [
      // Not in the share (any more).
      [`?path=${photos.id}`, async () => ({ share_status: 'NOT_FOUND', share_status_text: 'Not in this share.', file_info: null })],
      // A file, not a folder.
      [`?path=${beach.id}`, async () => ({ share_status: 'OK', share_status_text: '', file_info: beach })],
      // A folder of the share, but not inside the one before it.
      [`?path=${photos.id}.${inner.id}`, async ({ fileId }) => ({ share_status: 'OK', share_status_text: '', file_info: fileId === inner.id ? inner : photos })],
      // Not a path at all: nothing is asked.
      ['?path=..%2F..', async () => ({ share_status: 'OK', share_status_text: '', file_info: photos })],
    ]
    for (const [search, shareFile] of cases) {
      const api = fakeApi({ shareFile: vi.fn(shareFile) })
      await showShare(api, { search })
      await waitFor(() => expect(screen.getAllByTestId('share-row').map((row) => row.dataset.name)).toEqual(['photos', 'notes.txt']))
      expect(screen.getByRole('navigation', { name: texts.breadcrumb }).querySelector('[aria-current="page"]')?.textContent).toBe(texts.root)
      expect(api.shareFolder).not.toHaveBeenCalled()
      cleanup()
    }
  })

  it('saves the chosen items of a folder with their ancestors, follows the task and opens the folder saved into', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    let report: ((task: DriveTask) => void) | undefined
    let finish: (() => void) | undefined
    const api = fakeApi({
      restoreShare: vi.fn(async () => ({ share_status: 'OK' as const, share_status_text: '', restore_status: 'RESTORE_START' as const, restore_task_id: 'task-9', file_id: 'saved-folder' })),
      waitForTask: vi.fn(
        (_id, options) =>
          new Promise<DriveTask>((resolve) => {
            report = options?.onProgress
            finish = () => resolve({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 } as DriveTask)
          }),
      ),
    })
    await showShare(api, { signedIn: true })
    const table = await screen.findByRole('table', { name: texts.list.caption })
    expect(screen.getByTestId('share-selection').textContent).toBe(texts.save.nothingSelected)
    await userEvent.click(within(table).getByRole('button', { name: 'photos' }))
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select beach.png' }))
    expect(screen.getByTestId('share-selection').textContent).toBe('1 item selected')
    await userEvent.click(screen.getByRole('button', { name: 'Save 1 item to my drive' }))

    await waitFor(() => expect(report).toBeDefined())
    act(() => report!({ phase: 'PHASE_TYPE_RUNNING', progress: 40 } as DriveTask))
    expect(screen.getByRole('progressbar', { name: texts.save.progress }).getAttribute('aria-valuenow')).toBe('40')
    await act(async () => finish!())
    const open = await screen.findByRole('link', { name: texts.save.open })
    expect(open.getAttribute('href')).toBe('/drive/saved-folder')
    expect(api.restoreShare).toHaveBeenCalledWith({ shareId: SHARE, passCodeToken: TOKEN, fileIds: [beach.id], ancestorIds: [photos.id] })
    expect(api.waitForTask.mock.calls[0]![0]).toBe('task-9')
  })

  it('shows why a save was refused', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    await showShare(fakeApi({ restoreShare: async () => ({ share_status: 'EXPIRED', share_status_text: 'This share has expired.', restore_status: '', restore_task_id: '', file_id: '' }) }), { signedIn: true })
    await userEvent.click(await screen.findByRole('button', { name: texts.save.all }))
    expect((await screen.findByTestId('share-status-text')).textContent).toBe('This share has expired.')
  })

  it('gives the focus back to the name of the file previewed when the preview closes', async () => {
    window.sessionStorage.setItem(`cumulus:share-pass-code-token:${SHARE}`, TOKEN)
    await showShare(fakeApi())
    const name = await screen.findByRole('button', { name: 'notes.txt' })
    await userEvent.click(name)
    await screen.findByTestId('preview-dialog')
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('preview-dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(name))
  })

  it('speaks the page’s language (Simplified Chinese)', async () => {
    await showShare(fakeApi(), { locale: 'zh-CN' })
    expect(await screen.findByLabelText(zhCN.sharePage.passCode.label)).toBeDefined()
    expect(screen.getByRole('button', { name: zhCN.sharePage.passCode.submit })).toBeDefined()
  })
})

describe('the share page’s language offer', () => {
  const clearLocaleCookie = () => {
    document.cookie = 'i18n_redirected=; Max-Age=0; Path=/'
  }
  const browserLanguages = (languages: string[]) => vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages)

  beforeEach(() => {
    clearLocaleCookie()
    return () => {
      clearLocaleCookie()
      vi.restoreAllMocks()
    }
  })

  /** Waits until the offer, if any, could have appeared: the page is up and the Korean tables are loaded. */
  async function settled() {
    await screen.findByLabelText(/./, { selector: 'input' })
    await act(async () => {
      await loadLocaleMessages('ko')
    })
  }

  it('offers a visitor whose browser prefers Korean the Korean page, in Korean, and remembers the choice', async () => {
    browserLanguages(['ko-KR', 'en-US'])
    await showShare(fakeApi(), { routes: { [`/s/${SHARE}`]: <p data-testid="korean-share-page" /> } })
    const offer = await screen.findByRole('link', { name: ko.sharePage.languageOffer })
    expect(offer.getAttribute('lang')).toBe('ko')
    expect(offer.getAttribute('href')).toBe(`/ko/s/${SHARE}`)
    await userEvent.click(offer)
    expect(await screen.findByTestId('korean-share-page')).toBeDefined()
    expect(document.cookie).toContain('i18n_redirected=ko')
  })

  it('offers nothing to a visitor who chose a language here before, whose browser prefers English, or on a page with a language', async () => {
    browserLanguages(['ko-KR'])
    document.cookie = 'i18n_redirected=en-US; Path=/'
    await showShare(fakeApi())
    await settled()
    expect(screen.queryByTestId('share-language-offer')).toBeNull()
    cleanup()

    clearLocaleCookie()
    browserLanguages(['en-GB', 'ko'])
    await showShare(fakeApi())
    await settled()
    expect(screen.queryByTestId('share-language-offer')).toBeNull()
    cleanup()

    browserLanguages(['ko-KR'])
    await showShare(fakeApi(), { locale: 'zh-CN' })
    await settled()
    expect(screen.queryByTestId('share-language-offer')).toBeNull()
  })
})
