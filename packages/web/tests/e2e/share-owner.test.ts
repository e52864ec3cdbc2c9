// Share links from the owner's side (issue 17) in a real browser against the real server: a file
// uploaded, shared through the Share dialog with the owner's own pass code (a bad one refused
// inline first), the link, code and share text read from the dialog and copied; the link opens
// in a second browser without an account, asks for its code, lists, previews and downloads; a
// second user signs in from there and saves it into their drive; My shares lists the share with
// its counts, and cancelling it there stops the link, for the visitor too. On a 375 px phone in
// Simplified Chinese and the dark theme, a public share that never expires: nothing past the
// screen's edge. axe-core on the dialog and the page, light and dark.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { SHARE_TEXTS, type ShareInfoReply } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import zhCN from '../../app/locales/zh-CN/index'
import { fill, prefixOf, seedUser, signInWithPassword, submitPasswordSignIn, waitForPath } from './account-utils'
import { driveRow, localTree, rowAction, toast } from './drive-utils'
import { expectNoA11yViolations, PHONE, test, waitForHydration } from './playwright-utils'

const share = en.drive.share

/** What a visitor's GET /drive/v1/share answers (no bearer), as the share page asks it. */
async function openAsVisitor(serverUrl: string, shareId: string, passCode?: string): Promise<ShareInfoReply> {
  const query = new URLSearchParams({ share_id: shareId, ...(passCode === undefined ? {} : { pass_code: passCode }) })
  const response = await fetch(`${serverUrl}/drive/v1/share?${query}`)
  expect(response.status).toBe(200)
  return (await response.json()) as ShareInfoReply
}

/** Uploads local files into the drive folder shown and waits until they are all listed. */
async function upload(page: Page, files: Record<string, string>): Promise<void> {
  const root = await localTree(files)
  try {
    await page.getByTestId('upload-files-input').setInputFiles(Object.keys(files).map((name) => join(root, name)))
    for (const name of Object.keys(files)) await driveRow(page, name).waitFor()
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

/** How far right anything on the page reaches (polled by the tests: the dialog animates as it changes content). */
function widestRight(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll('body *')].map((el) => el.getBoundingClientRect().right)))
}

describe('sharing from the drive', () => {
  test('share a file with my own pass code, copy what the dialog shows, find it in My shares with its views, and cancel it', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'share-owner', name: 'Sharon Owner' })
    const { page, context } = await openPage()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await page.getByTestId('drive-empty').waitFor()
    await upload(page, { 'report.txt': 'Quarterly numbers.\n' })

    await rowAction(page, 'report.txt', share.action)
    const dialog = page.getByTestId('share-dialog')
    await dialog.getByRole('heading', { name: fill(share.dialog.titleOne, { name: 'report.txt' }) }).waitFor()
    // A pass code and a week unless the owner chooses otherwise.
    expect(await dialog.getByRole('radio', { name: share.dialog.passCode }).isChecked()).toBe(true)
    expect(await dialog.getByRole('radio', { name: fill(share.dialog.days.other, { count: 7 }) }).isChecked()).toBe(true)
    await expectNoA11yViolations(page)

    // The owner's own code: refused inline until it is 4 to 16 letters or digits; nothing is sent.
    const shareCalls: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/drive/v1/share') shareCalls.push(request.postData() ?? '')
    })
    await dialog.getByRole('radio', { name: share.dialog.customCode }).check()
    const codeField = dialog.getByLabel(share.dialog.customCodeLabel, { exact: true })
    await codeField.fill('no!')
    await dialog.getByRole('button', { name: share.dialog.create }).click()
    await dialog.getByText(share.dialog.codeInvalid).waitFor()
    expect(await codeField.getAttribute('aria-invalid')).toBe('true')
    await codeField.fill('Sunny2026')
    await dialog.getByText(share.dialog.codeInvalid).waitFor({ state: 'detached' })
    await dialog.getByText(fill(share.dialog.days.other, { count: 30 })).click()
    expect(await dialog.getByRole('radio', { name: fill(share.dialog.days.other, { count: 30 }) }).isChecked()).toBe(true)
    await dialog.getByRole('button', { name: share.dialog.create }).click()

    // The link, the code and the server's text, as the dialog shows them.
    await dialog.getByRole('heading', { name: share.created.title }).waitFor()
    expect(shareCalls).toHaveLength(1)
    expect(JSON.parse(shareCalls[0]!)).toMatchObject({ share_to: 'encryptedlink', custom_pass_code: 'Sunny2026', expiration_days: 30 })
    const link = await dialog.getByLabel(share.created.link, { exact: true }).inputValue()
    const code = await dialog.getByLabel(share.created.passCode, { exact: true }).inputValue()
    const text = await dialog.getByLabel(share.created.shareText, { exact: true }).inputValue()
    expect(link).toMatch(new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/s/[\\w-]+$`))
    expect(code).toBe('Sunny2026')
    expect(text).toBe(`report.txt\n${link}\nPass code: Sunny2026`)
    const shareId = new URL(link).pathname.split('/').pop()!

    // Copy: the clipboard holds the text, and the button and a status line say so.
    const copy = dialog.getByRole('button', { name: share.created.copy })
    await expect.poll(() => copy.evaluate((button) => document.activeElement === button)).toBe(true)
    await copy.click()
    await dialog.getByRole('button', { name: share.created.copied }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text)
    expect(await dialog.getByRole('status').filter({ hasText: share.created.copied }).count()).toBe(1)
    await expectNoA11yViolations(page)

    // A visitor without an account, in a browser of their own: the link asks for the code, then
    // lists, previews and downloads the file.
    expect((await openAsVisitor(server.url, shareId)).share_status).toBe('PASS_CODE_EMPTY')
    const visitor = await openPage({ acceptDownloads: true })
    await visitor.page.goto(link)
    await waitForHydration(visitor.page)
    await visitor.page.getByLabel(en.sharePage.passCode.label, { exact: true }).fill('wrong1')
    await visitor.page.getByRole('button', { name: en.sharePage.passCode.submit, exact: true }).click()
    await visitor.page.getByText(SHARE_TEXTS['en-US'].status.PASS_CODE_ERROR).waitFor()
    await visitor.page.getByLabel(en.sharePage.passCode.label, { exact: true }).fill(code)
    await visitor.page.getByRole('button', { name: en.sharePage.passCode.submit, exact: true }).click()
    const listing = visitor.page.getByRole('table', { name: en.sharePage.list.caption })
    await listing.waitFor()
    expect(await visitor.page.getByTestId('share-row').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.name))).toEqual(['report.txt'])
    await listing.getByRole('button', { name: 'report.txt' }).click()
    const preview = visitor.page.getByTestId('preview-dialog')
    await expect.poll(() => preview.getByTestId('preview-text').textContent()).toBe('Quarterly numbers.\n')
    await visitor.page.keyboard.press('Escape')
    const [download] = await Promise.all([visitor.page.waitForEvent('download'), listing.getByRole('link', { name: fill(en.sharePage.list.download, { name: 'report.txt' }) }).click()])
    expect(await readFile((await download.path())!, 'utf8')).toBe('Quarterly numbers.\n')

    // A second user signs in from the share and saves it into their drive.
    const saver = await seedUser(server, { label: 'share-saver', name: 'Sam Saver' })
    await visitor.page.getByRole('link', { name: en.sharePage.save.signIn }).click()
    await waitForPath(visitor.page, '/account/login')
    await submitPasswordSignIn(visitor.page, saver.email, saver.password)
    await waitForPath(visitor.page, `/s/${shareId}`)
    await listing.waitFor()
    await visitor.page.getByRole('button', { name: en.sharePage.save.all, exact: true }).click()
    const saved = visitor.page.getByTestId('share-saved')
    await saved.getByText(en.sharePage.save.done).waitFor({ timeout: 30_000 })
    await saved.getByRole('link', { name: en.sharePage.save.open }).click()
    await visitor.page.getByRole('heading', { level: 1, name: SHARE_TEXTS['en-US'].packFolder }).waitFor()
    await driveRow(visitor.page, 'report.txt').waitFor()

    // My shares, from the dialog.
    await dialog.getByRole('link', { name: share.created.myShares }).click()
    await waitForPath(page, '/drive/shares')
    await page.getByRole('heading', { level: 1, name: share.page.title }).waitFor()
    const row = page.getByTestId('share-row').filter({ has: page.getByTestId('share-title').filter({ hasText: 'report.txt' }) })
    await row.waitFor()
    expect(await row.getByTestId('share-pass-code').textContent()).toBe(`${share.list.passCode} Sunny2026`)
    expect(await row.getByTestId('share-expiry').textContent()).toBe(fill(share.list.expiresIn, { when: 'in 30 days' }))
    const counts = row.getByRole('list', { name: share.list.activity })
    // Opened with the code, and again once signed in; saved once; downloaded once.
    expect(await counts.getByRole('listitem').allTextContents()).toEqual([fill(share.list.views.other, { count: 2 }), fill(share.list.saves.one, { count: 1 }), fill(share.list.downloads.one, { count: 1 })])
    expect(await row.getByRole('link', { name: `${share.list.open} ${share.list.newTab}` }).getAttribute('href')).toBe(link)
    // The drive's navigation knows where it is.
    expect(await page.getByRole('navigation', { name: en.drive.nav.label }).first().getByRole('link', { name: share.nav }).getAttribute('aria-current')).toBe('page')
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark')
      await expectNoA11yViolations(page)
    }

    // Cancel it: asked first; then the link stops working and the list is empty.
    await row.getByRole('button', { name: share.list.cancel }).click()
    const confirm = page.getByTestId('confirm-dialog')
    await confirm.getByRole('heading', { name: fill(share.list.confirmTitleOne, { name: 'report.txt' }) }).waitFor()
    await expectNoA11yViolations(page)
    await confirm.getByRole('button', { name: share.list.cancelSelected.one }).click()
    await toast(page, fill(share.list.cancelledOne, { name: 'report.txt' }))
    await page.getByTestId('shares-empty').waitFor()
    expect((await openAsVisitor(server.url, shareId, code)).share_status).toBe('DELETED')
    await visitor.page.goto(link)
    expect(await visitor.page.getByTestId('share-unavailable').getAttribute('data-status')).toBe('DELETED')
    // Still gone after a reload: the server forgot it, not only the page.
    await page.reload()
    await page.getByTestId('shares-empty').waitFor()
  })

  test('on a phone in Simplified Chinese and the dark theme: a public link that never expires, My shares within the screen', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'share-phone', name: 'Phoebe Phone' })
    const { page } = await openPage({ ...PHONE, locale: 'zh-CN', colorScheme: 'dark' })
    await signInWithPassword(page, user, { locale: 'zh-CN', t: zhCN })
    await page.goto(`${prefixOf('zh-CN')}/drive`)
    await waitForHydration(page)
    await page.getByTestId('drive-empty').waitFor()
    await upload(page, { '一份很长很长的季度财务报告最终版本.txt': 'numbers', 'b.txt': 'b' })
    const zh = zhCN.drive.share

    // Both files selected, shared from the selection bar's menu (on a phone the actions fold into it).
    await driveRow(page, 'b.txt').getByTestId('row-select').click()
    await driveRow(page, '一份很长很长的季度财务报告最终版本.txt').getByTestId('row-select').click()
    await page.getByTestId('selection-bar').getByRole('button', { name: zhCN.drive.toolbar.more }).click()
    await page.getByRole('menuitem', { name: zh.action }).click()
    const dialog = page.getByTestId('share-dialog')
    await dialog.getByRole('heading', { name: fill(zh.dialog.titleMany.other, { count: 2 }) }).waitFor()
    await dialog.getByRole('radio', { name: zh.dialog.public }).check()
    await dialog.getByText(zh.dialog.never, { exact: true }).click()
    await expect.poll(() => widestRight(page)).toBeLessThanOrEqual(375)
    await expectNoA11yViolations(page)
    await dialog.getByRole('button', { name: zh.dialog.create }).click()
    await dialog.getByRole('heading', { name: zh.created.title }).waitFor()
    await dialog.getByText(zh.created.never).waitFor()
    expect(await dialog.getByLabel(zh.created.passCode, { exact: true }).count()).toBe(0)
    await expect.poll(() => widestRight(page)).toBeLessThanOrEqual(375)
    await expectNoA11yViolations(page)
    await dialog.getByRole('button', { name: zh.created.done }).click()
    await dialog.waitFor({ state: 'detached' })

    // My shares from the drive's tabs.
    await page.getByRole('navigation', { name: zhCN.drive.nav.label }).getByRole('link', { name: zh.nav }).click()
    await waitForPath(page, `${prefixOf('zh-CN')}/drive/shares`)
    const row = page.getByTestId('share-row')
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.getByTestId('share-expiry').textContent()).toBe(zh.list.neverExpires)
    expect(await row.getByText(zh.list.publicLink).count()).toBe(1)
    expect(await row.getByText(new RegExp(`^${fill(zh.list.items.other, { count: 2 })} · `)).count()).toBe(1)
    await expect.poll(() => widestRight(page)).toBeLessThanOrEqual(375)
    // The actions can be reached by tap: each at least 36 px high, inside the screen.
    for (const name of [zh.list.copy, zh.list.cancel]) {
      const box = (await row.getByRole('button', { name }).boundingBox())!
      expect(box.height).toBeGreaterThanOrEqual(36)
      expect(box.x + box.width).toBeLessThanOrEqual(375)
    }
    await expectNoA11yViolations(page)
  })
})
