// The public share page in a real browser against the real server (issue 17). Ann uploads two
// files and a folder holding a file and shares them behind a pass code (through the SDK, as the
// apps do). A visitor without an account opens /s/{id}: the server-rendered page already carries
// the link-preview tags; a wrong code is refused in the server's words, the right one lists the
// share; the folder is browsed and left through the breadcrumb; a text and a picture are
// previewed; a file is downloaded byte for byte; then the visitor signs in as Bob (the login
// page brings them back to the share) and saves everything into "Pack From Shared" (as a task).
// A cancelled share and an unknown one say so. On a 375 px phone in Simplified Chinese: a public share's
// preview names its title, an expired share says so, the code comes in the link (?pwd=) and
// leaves the address bar, and Ann is told she cannot save her own share. A shared video plays
// in the drive's player for a visitor, streamed with Range requests.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import { ERROR_MESSAGES, SHARE_TEXTS, WEB_CLIENT_ID } from '@cumulus/protocol'
import { DriveClient, IdentityClient, MemoryStorage } from '@cumulus/sdk'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import zhCN from '../../app/locales/zh-CN/index'
import { fill, prefixOf, type SeededUser, seedUser, signInWithPassword, submitPasswordSignIn, type Texts, waitForPath } from './account-utils'
import { driveRow, localTree, recordWebm, rowNames } from './drive-utils'
import { e2eTest, expectNoA11yViolations, PHONE, type TestServer, waitForHydration } from './playwright-utils'

// Ann's API session signs in from Node: no captcha in front of it. Saves of more than two
// items run as a task (BATCH_INLINE_MAX_ITEMS), so saving the share shows the task's progress.
const test = e2eTest({ captchaMode: 'off', env: { BATCH_INLINE_MAX_ITEMS: '2' } })

const CODE = 'k3y9'
const NOTES = 'Packing list:\n- sunscreen\n- towel\n'
const DAY_ONE = 'Day one: arrived at the beach.\n'
/** A 2×2 PNG (red, green, blue, white), so the preview and the thumbnail have a real picture. */
const PNG = png2x2()

function png2x2(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0)
  header.writeUInt32BE(2, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  // Each row starts with filter type 0.
  const pixels = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255])
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))])
}

/** The SDK's drive client signed in as `user`, from Node (what an app does). */
async function driveAs(server: TestServer, user: SeededUser): Promise<DriveClient> {
  const identity = new IdentityClient({ clientId: WEB_CLIENT_ID, origins: [server.url], storage: new MemoryStorage(), retry: 0, locks: null })
  await identity.signIn({ username: user.email, password: user.password })
  return new DriveClient({ identity, storage: new MemoryStorage() })
}

/** Ann's drive through the page: `trip/day1.txt`, `notes.txt` and `pixel.png`. Returns their ids by name. */
async function uploadAnnsFiles(page: Page, locale: string): Promise<Record<string, string>> {
  await page.goto(`${prefixOf(locale)}/drive`)
  await page.getByTestId('drive-empty').waitFor()
  const root = await localTree({ 'trip/day1.txt': DAY_ONE, 'notes.txt': NOTES, 'pixel.png': PNG })
  try {
    await page.getByTestId('upload-folder-input').setInputFiles(join(root, 'trip'))
    await driveRow(page, 'trip').waitFor({ timeout: 30_000 })
    await page.getByTestId('upload-files-input').setInputFiles([join(root, 'notes.txt'), join(root, 'pixel.png')])
    await expect.poll(() => rowNames(page), { timeout: 30_000 }).toEqual(['trip', 'notes.txt', 'pixel.png'])
  } finally {
    await rm(root, { recursive: true, force: true })
  }
  const ids: Record<string, string> = {}
  for (const name of ['trip', 'notes.txt', 'pixel.png']) ids[name] = (await driveRow(page, name).getAttribute('data-id'))!
  return ids
}

/** The share's rows, top to bottom. */
async function shareRows(page: Page): Promise<string[]> {
  return page.getByTestId('share-row').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.name ?? ''))
}

/** The content of a `<meta>` in server-rendered HTML. */
function metaContent(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  const tag = new RegExp(`<meta[^>]*\\b${attribute}="${key.replace(/[.:]/g, '\\$&')}"[^>]*>`).exec(html)?.[0]
  return tag ? /content="([^"]*)"/.exec(tag)?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"') : undefined
}

/** axe-core in the light and the dark theme (the system's, emulated), back to light after. */
async function expectNoA11yViolationsLightAndDark(page: Page): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark')
    await expectNoA11yViolations(page)
  }
}

async function enterPassCode(page: Page, code: string, t: Texts): Promise<void> {
  await page.getByLabel(t.sharePage.passCode.label, { exact: true }).fill(code)
  await page.getByRole('button', { name: t.sharePage.passCode.submit, exact: true }).click()
}

describe('the share page', () => {
  test('a visitor opens a pass-code share, browses, previews and downloads, then signs in and saves it (desktop, English)', async ({ server, openPage }) => {
    const ann = await seedUser(server, { label: 'share-owner', name: 'Ann' })
    const bob = await seedUser(server, { label: 'share-saver', name: 'Bob' })
    const owner = await openPage()
    await signInWithPassword(owner.page, ann)
    const ids = await uploadAnnsFiles(owner.page, 'en-US')
    const annDrive = await driveAs(server, ann)
    const created = await annDrive.createShare({ fileIds: [ids['trip']!, ids['notes.txt']!, ids['pixel.png']!], customPassCode: CODE, title: 'Holiday' })
    const shareId = created.share_id

    // Server-rendered for link previews: the owner's name only (the code guards the title), never stored.
    const response = await fetch(`${server.url}/s/${shareId}?pwd=${CODE}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('x-render-cache')).toBeNull()
    const html = await response.text()
    const lockedTitle = fill(en.sharePage.meta.lockedTitle, { owner: 'Ann' })
    expect(metaContent(html, 'property', 'og:title')).toBe(lockedTitle)
    expect(metaContent(html, 'property', 'og:description')).toBe(en.sharePage.meta.lockedDescription)
    expect(metaContent(html, 'property', 'og:url')).toBe(`${server.url}/s/${shareId}`)
    expect(metaContent(html, 'name', 'twitter:card')).toBe('summary')
    expect(html).toContain(`<title>${lockedTitle} · Cumulus</title>`)
    expect(html).not.toContain('Holiday')

    // A visitor with no account.
    const { page, errors } = await openPage()
    // The list asks for the picture's thumbnail, which the server may still be making.
    errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 404 .*\/thumbnails?\//)
    await page.goto(`/s/${shareId}`)
    await waitForHydration(page)
    const field = page.getByLabel(en.sharePage.passCode.label, { exact: true })
    await field.waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('pwd')
    await expectNoA11yViolations(page)
    await enterPassCode(page, 'zzzz', en)
    await page.getByText(SHARE_TEXTS['en-US'].status.PASS_CODE_ERROR, { exact: true }).waitFor()
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    await enterPassCode(page, CODE, en)

    const table = page.getByRole('table', { name: en.sharePage.list.caption })
    await table.waitFor()
    await expect.poll(() => shareRows(page)).toEqual(['trip', 'notes.txt', 'pixel.png'])
    await page.getByRole('heading', { level: 1, name: 'Holiday' }).waitFor()
    const facts = await page.getByTestId('share-facts').textContent()
    expect(facts).toContain(fill(en.sharePage.sharedBy, { owner: 'Ann' }))
    expect(facts).toContain(fill(en.sharePage.itemCount.other, { count: 3 }))
    expect(facts).toContain(en.sharePage.neverExpires)
    await expectNoA11yViolationsLightAndDark(page)

    // Into the folder and back through the breadcrumb, which starts at the top of the share.
    await table.getByRole('button', { name: 'trip' }).click()
    await expect.poll(() => shareRows(page)).toEqual(['day1.txt'])
    const crumbs = page.getByRole('navigation', { name: en.sharePage.breadcrumb })
    expect(await crumbs.locator('[aria-current="page"]').textContent()).toBe('trip')
    // The address keeps the folder: a reload comes back to it, and Back and Forward move
    // between the folders like pages.
    const tripPath = new URL(page.url()).searchParams.get('path')
    expect(tripPath).toMatch(/^[A-Za-z0-9_-]+$/)
    await page.reload()
    await expect.poll(() => shareRows(page)).toEqual(['day1.txt'])
    expect(await crumbs.locator('[aria-current="page"]').textContent()).toBe('trip')
    await page.goBack()
    await expect.poll(() => shareRows(page)).toEqual(['trip', 'notes.txt', 'pixel.png'])
    await page.goForward()
    await expect.poll(() => shareRows(page)).toEqual(['day1.txt'])
    await crumbs.getByRole('button', { name: en.sharePage.root, exact: true }).click()
    await expect.poll(() => shareRows(page)).toEqual(['trip', 'notes.txt', 'pixel.png'])
    expect(new URL(page.url()).search).toBe('')

    // Previews: the text's content and the picture, through the share's own links.
    await table.getByRole('button', { name: 'notes.txt' }).click()
    const dialog = page.getByTestId('preview-dialog')
    await expect.poll(() => dialog.getByTestId('preview-text').textContent()).toBe(NOTES)
    await page.keyboard.press('ArrowRight')
    const picture = dialog.getByTestId('preview-image')
    await picture.waitFor()
    await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(2)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    // A download through the browser, byte for byte.
    const [download] = await Promise.all([page.waitForEvent('download'), table.getByRole('link', { name: fill(en.sharePage.list.download, { name: 'notes.txt' }) }).click()])
    expect(download.suggestedFilename()).toBe('notes.txt')
    expect(await readFile((await download.path())!, 'utf8')).toBe(NOTES)

    // Saving needs an account: to the login page and back to the share, in the folder left
    // (whose code is remembered).
    await table.getByRole('button', { name: 'trip' }).click()
    await expect.poll(() => shareRows(page)).toEqual(['day1.txt'])
    await page.getByRole('link', { name: en.sharePage.save.signIn }).click()
    await waitForPath(page, '/account/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/s/${shareId}?path=${tripPath}`)
    await submitPasswordSignIn(page, bob.email, bob.password)
    await waitForPath(page, `/s/${shareId}`)
    await expect.poll(() => shareRows(page)).toEqual(['day1.txt'])
    await crumbs.getByRole('button', { name: en.sharePage.root, exact: true }).click()
    await expect.poll(() => shareRows(page)).toEqual(['trip', 'notes.txt', 'pixel.png'])
    expect(await page.getByLabel(en.sharePage.passCode.label).count()).toBe(0)
    expect(await page.getByTestId('share-selection').textContent()).toBe(en.sharePage.save.nothingSelected)
    const restored = page.waitForResponse((res) => new URL(res.url()).pathname === '/drive/v1/share/restore')
    await page.getByRole('button', { name: en.sharePage.save.all, exact: true }).click()
    // Four items (the folder, its file and two files): a task, whose progress the page follows.
    expect(await (await restored).json()).toMatchObject({ share_status: 'OK', restore_status: 'RESTORE_START' })
    const saved = page.getByTestId('share-saved')
    await saved.getByText(en.sharePage.save.done).waitFor({ timeout: 30_000 })
    await expectNoA11yViolations(page)
    await saved.getByRole('link', { name: en.sharePage.save.open }).click()
    await page.getByRole('heading', { level: 1, name: SHARE_TEXTS['en-US'].packFolder }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['trip', 'notes.txt', 'pixel.png'])
    await driveRow(page, 'trip').dblclick()
    await page.getByRole('heading', { level: 1, name: 'trip' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['day1.txt'])

    // Cancelled by its owner: the page says so, in the server's words, with the way home.
    await annDrive.deleteShares([shareId])
    await page.goto(`/s/${shareId}`)
    const gone = page.getByTestId('share-unavailable')
    await gone.waitFor()
    expect(await gone.getAttribute('data-status')).toBe('DELETED')
    expect(await page.getByTestId('share-status-text').textContent()).toBe(SHARE_TEXTS['en-US'].status.DELETED)
    await page.getByRole('link', { name: en.sharePage.backHome }).waitFor()
    await expectNoA11yViolations(page)
    // And its link preview no longer names anyone.
    const goneHtml = await (await fetch(`${server.url}/s/${shareId}`)).text()
    expect(metaContent(goneHtml, 'property', 'og:title')).toBe(en.sharePage.meta.unavailableTitle)

    await page.goto('/s/no-such-share')
    await page.getByText(SHARE_TEXTS['en-US'].status.NOT_FOUND, { exact: true }).waitFor()
  })

  test('on a phone in Simplified Chinese: a public share names its title and then expires, the code comes in the link and leaves the address bar, and the owner cannot save her own share', async ({ server, openPage }) => {
    const ann = await seedUser(server, { label: 'share-owner-zh', name: '安娜' })
    const owner = await openPage({ ...PHONE, locale: 'zh-CN' })
    await owner.page.goto(`${prefixOf('zh-CN')}/account/login`)
    await signInWithPassword(owner.page, ann, { locale: 'zh-CN', t: zhCN })
    const ids = await uploadAnnsFiles(owner.page, 'zh-CN')
    const annDrive = await driveAs(server, ann)

    // A public share: its preview names the title and the item count, in the page's language.
    const open = await annDrive.createShare({ fileIds: [ids['trip']!], expirationDays: 7 })
    const html = await (await fetch(`${server.url}/zh-CN/s/${open.share_id}`)).text()
    expect(metaContent(html, 'property', 'og:title')).toBe(fill(zhCN.sharePage.meta.sharedTitle, { owner: '安娜', title: 'trip' }))
    expect(metaContent(html, 'property', 'og:description')).toBe(fill(zhCN.sharePage.meta.sharedDescription.one, { owner: '安娜', count: 1 }))

    const { page, errors } = await openPage({ ...PHONE, locale: 'zh-CN' })
    errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 404 .*\/thumbnails?\//)
    // The link the drive hands out has no language; this visitor chose Chinese on an earlier
    // visit, so it opens in Chinese.
    await page.context().addCookies([{ name: 'i18n_redirected', value: 'zh-CN', url: server.url }])
    await page.goto(`/s/${open.share_id}`)
    expect(new URL(page.url()).pathname).toBe(`/zh-CN/s/${open.share_id}`)
    await expect.poll(() => shareRows(page)).toEqual(['trip'])
    // A row's checkbox is a finger's target (40 px), not just its 16 px box.
    const box = page.getByRole('checkbox', { name: fill(zhCN.sharePage.list.select, { name: 'trip' }) })
    const target = box.locator('xpath=..')
    const bounds = await target.boundingBox()
    expect(Math.min(bounds?.width ?? 0, bounds?.height ?? 0)).toBeGreaterThanOrEqual(40)
    await target.click({ position: { x: 3, y: 3 } })
    expect(await box.isChecked()).toBe(true)
    await target.click({ position: { x: 3, y: 3 } })
    expect(await box.isChecked()).toBe(false)
    // An expiry date is shown (7 days).
    expect(await page.getByTestId('share-facts').textContent()).toMatch(new RegExp(zhCN.sharePage.expires.replace('{{date}}', '.+')))

    // Past its expiry (moved there in the database: the clock is the server's), it says so in Chinese.
    await server.server.drive.db.updateTable('drive_shares').set({ expires_at: Date.now() - 1_000 }).where('id', '=', open.share_id).execute()
    await page.reload()
    await expect.poll(() => page.getByTestId('share-status-text').textContent()).toBe(SHARE_TEXTS['zh-CN'].status.EXPIRED)
    expect(await page.getByTestId('share-unavailable').getAttribute('data-status')).toBe('EXPIRED')
    await page.getByRole('heading', { level: 2, name: zhCN.sharePage.unavailable.title }).waitFor()
    expect(metaContent(await (await fetch(`${server.url}/zh-CN/s/${open.share_id}`)).text(), 'property', 'og:title')).toBe(zhCN.sharePage.meta.unavailableTitle)

    // Behind a code given in the link: opened at once, and the code leaves the address bar.
    const locked = await annDrive.createShare({ fileIds: [ids['notes.txt']!, ids['pixel.png']!], customPassCode: CODE, title: '假期' })
    await page.goto(`/zh-CN/s/${locked.share_id}?pwd=${CODE}`)
    await waitForHydration(page)
    await expect.poll(() => shareRows(page)).toEqual(['notes.txt', 'pixel.png'])
    await expect.poll(() => new URL(page.url()).search).toBe('')
    await page.getByRole('table', { name: zhCN.sharePage.list.caption }).waitFor()
    await page.getByRole('heading', { level: 1, name: '假期' }).waitFor()
    expect(await page.getByRole('link', { name: zhCN.sharePage.save.signIn }).getAttribute('href')).toBe(`/zh-CN/account/login?redirect=${encodeURIComponent(`/zh-CN/s/${locked.share_id}`)}`)
    // Nothing past the phone's edge; light and dark pass axe.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await expectNoA11yViolationsLightAndDark(page)

    // A wrong code on a fresh visit is refused in Chinese.
    const fresh = await openPage({ ...PHONE, locale: 'zh-CN' })
    await fresh.page.goto(`/zh-CN/s/${locked.share_id}?pwd=wrong1`)
    await fresh.page.getByText(SHARE_TEXTS['zh-CN'].status.PASS_CODE_ERROR, { exact: true }).waitFor()
    expect(await fresh.page.getByLabel(zhCN.sharePage.passCode.label, { exact: true }).inputValue()).toBe('wrong1')

    // A visitor whose browser speaks Chinese and who never chose a language here opens the link
    // as the drive hands it out (no language in it): the page offers Chinese, in Chinese, and
    // the choice is remembered.
    const newcomer = await openPage({ ...PHONE, locale: 'zh-CN' })
    await newcomer.page.goto(`/s/${locked.share_id}`)
    await waitForHydration(newcomer.page)
    await newcomer.page.getByRole('link', { name: zhCN.sharePage.languageOffer }).tap()
    await newcomer.page.waitForURL((url) => url.pathname === `/zh-CN/s/${locked.share_id}`)
    await newcomer.page.getByLabel(zhCN.sharePage.passCode.label, { exact: true }).waitFor()
    expect((await newcomer.context.cookies()).find((cookie) => cookie.name === 'i18n_redirected')?.value).toBe('zh-CN')

    // The owner herself, signed in, is told why she cannot save her own share.
    owner.errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 400 .*\/drive\/v1\/share\/restore/)
    owner.errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 404 .*\/thumbnails?\//)
    await owner.page.goto(`/zh-CN/s/${locked.share_id}?pwd=${CODE}`)
    await expect.poll(() => shareRows(owner.page)).toEqual(['notes.txt', 'pixel.png'])
    await owner.page.getByRole('checkbox', { name: fill(zhCN.sharePage.list.select, { name: 'notes.txt' }) }).check()
    await owner.page.getByRole('button', { name: fill(zhCN.sharePage.save.selected.one, { count: 1 }) }).click()
    await expect.poll(() => owner.page.getByTestId('share-save-error').textContent()).toBe(ERROR_MESSAGES['zh-CN'].file_restore_own)
    expect(await owner.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })

  test('a shared video plays in the preview for a visitor, streamed from the share\'s own link', async ({ server, openPage }) => {
    const ann = await seedUser(server, { label: 'share-video', name: 'Ann' })
    const owner = await openPage()
    await signInWithPassword(owner.page, ann)
    await owner.page.goto('/drive')
    await owner.page.getByTestId('drive-empty').waitFor()
    const video = await recordWebm(owner.page)
    const root = await localTree({ 'clip.webm': video })
    try {
      await owner.page.getByTestId('upload-files-input').setInputFiles(join(root, 'clip.webm'))
      await driveRow(owner.page, 'clip.webm').waitFor({ timeout: 30_000 })
    } finally {
      await rm(root, { recursive: true, force: true })
    }
    await expect.poll(() => driveRow(owner.page, 'clip.webm').getAttribute('data-id')).toBeTruthy()
    const clipId = (await driveRow(owner.page, 'clip.webm').getAttribute('data-id'))!
    const share = await (await driveAs(server, ann)).createShare({ fileIds: [clipId] })

    const { page, errors } = await openPage()
    errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 404 .*\/thumbnails?\//)
    const ranged: number[] = []
    page.on('response', (response) => {
      if (/\/drive\/v1\/(content|media|share)\//.test(response.url()) && response.request().headers().range) ranged.push(response.status())
    })
    await page.goto(`/s/${share.share_id}`)
    await expect.poll(() => shareRows(page)).toEqual(['clip.webm'])
    await page.getByRole('table', { name: en.sharePage.list.caption }).getByRole('button', { name: 'clip.webm' }).click()
    const dialog = page.getByTestId('preview-dialog')
    await dialog.getByRole('heading', { name: 'clip.webm' }).waitFor()
    const player = dialog.getByTestId('preview-video')
    await player.waitFor()
    await expect.poll(() => player.evaluate((element) => (element as HTMLVideoElement).readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1)
    expect(ranged).toContain(206)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    // A play is not a download: the owner's share list counts none.
    const listed = (await (await driveAs(server, ann)).listShares()).data.find((s) => s.share_id === share.share_id)
    expect(listed).toMatchObject({ view_count: '1', download_count: '0' })
  })
})
