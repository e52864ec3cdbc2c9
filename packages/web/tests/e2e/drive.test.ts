// The drive pages in a real browser against the real server: a newcomer signs up, uploads a
// folder (with progress visible while the upload is slowed down), opens it, previews a video
// (the browser streams it from the signed link with Range requests), renames, moves, trashes
// and restores a file (opening it in the trash offers the restore, not a preview); files dropped on the page upload; and the pages pass axe-core in both
// themes, on a desktop and a phone.
import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ms from '../../app/locales/ms/index'
import zhTW from '../../app/locales/zh-TW/index'
import { fill, PASSWORD, seedUser, signInWithPassword, submitEmailSignUp, submitPasswordSignIn, uniqueEmail, waitForPath } from './account-utils'
import { driveRow, localTree, patternBytes, recordWebm, rowAction, rowNames, toast, uploadThrottle } from './drive-utils'
import { expectNoA11yViolations, PHONE, test, waitForHydration } from './playwright-utils'

const MiB = 1024 * 1024
const PHONE_HEIGHT = (PHONE.viewport as { height: number }).height

describe('the drive', () => {
  test('sign up, upload a folder, preview its video, rename, move, trash and restore', async ({ openPage, server }) => {
    const { page, context } = await openPage()
    await page.goto('/account/login')
    await submitEmailSignUp(page, server, { email: uniqueEmail('drive'), password: PASSWORD, name: 'Dana Drive' })
    // A new account lands on its drive, which is empty.
    await waitForPath(page, '/drive')
    await page.getByTestId('drive-empty').waitFor()
    await page.getByRole('heading', { level: 1, name: en.drive.nav.myDrive }).waitFor()

    const video = await recordWebm(page)
    expect(video.length).toBeGreaterThan(500)
    const big = patternBytes(3 * MiB)
    const root = await localTree({ 'trip/notes.txt': 'Day one: arrived.\n', 'trip/clip.webm': video, 'trip/data/big.bin': big })
    try {
      // Slowed to 1 MiB/s, the 3 MiB file takes seconds: its progress is there to see.
      const throttle = await uploadThrottle(context, page)
      await throttle.set(MiB)
      await page.getByTestId('upload-folder-input').setInputFiles(join(root, 'trip'))
      const panel = page.getByTestId('upload-panel')
      await panel.waitFor()
      const bigRow = panel.getByTestId('upload-row').filter({ hasText: 'trip/data/big.bin' })
      const bar = bigRow.getByRole('progressbar', { name: fill(en.drive.upload.progress, { name: 'big.bin' }) })
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(0)
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100)
      // "1.2 MiB of 3 MiB · 1 MiB/s": bytes sent, the total and the speed (binary units, a no-break space before each).
      await expect.poll(() => bigRow.getByTestId('upload-status').textContent(), { timeout: 15_000 }).toMatch(/ of 3\u00a0MiB · .+\u00a0[KM]iB\/s$/)
      await throttle.set(null)
      await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe('3 uploads complete')
    } finally {
      await rm(root, { recursive: true, force: true })
    }

    // The folder was rebuilt: trip/ with data/ inside it.
    await driveRow(page, 'trip').waitFor()
    await expect.poll(() => page.getByTestId('quota-text').first().textContent(), { timeout: 5_000 }).toMatch(/^3\u00a0MiB of .+ used$/)
    await driveRow(page, 'trip').dblclick()
    await page.getByRole('heading', { level: 1, name: 'trip' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['data', 'clip.webm', 'notes.txt'])
    const tripPath = new URL(page.url()).pathname
    expect(tripPath).toMatch(/^\/drive\/[^/]+$/)

    // The video plays from the signed link, which the browser reads with Range requests.
    const ranged: number[] = []
    page.on('response', (response) => {
      // The player streams the Original through its media link (drive.md "Media and playback").
      if (/\/drive\/v1\/(content|media)\//.test(response.url()) && response.request().headers().range) ranged.push(response.status())
    })
    await driveRow(page, 'clip.webm').dblclick()
    const dialog = page.getByTestId('preview-dialog')
    await dialog.getByRole('heading', { name: 'clip.webm' }).waitFor()
    const player = dialog.getByTestId('preview-video')
    await player.waitFor()
    await expect.poll(() => player.evaluate((element) => (element as HTMLVideoElement).readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1)
    expect(ranged).toContain(206)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    // Rename.
    await rowAction(page, 'notes.txt', en.drive.actions.rename)
    const field = page.getByLabel(en.drive.names.rename.label, { exact: true })
    // The field has the focus with the name selected but not its extension, ready to type over.
    await expect.poll(() => field.evaluate((input) => document.activeElement === input && [(input as HTMLInputElement).selectionStart, (input as HTMLInputElement).selectionEnd])).toEqual([0, 'notes'.length])
    await field.fill('journal.txt')
    await field.press('Enter')
    await toast(page, fill(en.drive.toast.renamed, { name: 'journal.txt' }))
    await expect.poll(() => rowNames(page)).toEqual(['data', 'clip.webm', 'journal.txt'])

    // Move into trip/data with the folder picker.
    await rowAction(page, 'journal.txt', en.drive.actions.move)
    const picker = page.getByTestId('folder-picker')
    await picker.getByRole('button', { name: fill(en.drive.picker.open, { name: 'data' }) }).click()
    await picker.getByText(en.drive.picker.empty).waitFor()
    await picker.getByRole('button', { name: en.drive.picker.moveHere }).click()
    await toast(page, fill(en.drive.toast.moved.one, { name: 'journal.txt', folder: 'data' }))
    await expect.poll(() => rowNames(page)).toEqual(['data', 'clip.webm'])
    await driveRow(page, 'data').dblclick()
    await page.getByRole('heading', { level: 1, name: 'data' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['big.bin', 'journal.txt'])
    const dataPath = new URL(page.url()).pathname
    // The breadcrumbs lead back up.
    expect(await page.getByRole('navigation', { name: en.drive.breadcrumb.label }).getByRole('link').allTextContents()).toEqual([en.drive.nav.myDrive, 'trip'])

    // Trash with the keyboard, then restore it from the trash.
    await driveRow(page, 'journal.txt').click()
    await page.keyboard.press('Delete')
    await toast(page, fill(en.drive.toast.trashed.one, { name: 'journal.txt' }))
    await expect.poll(() => rowNames(page)).toEqual(['big.bin'])
    await page.getByRole('navigation', { name: en.drive.nav.label }).first().getByRole('link', { name: en.drive.nav.trash }).click()
    await waitForPath(page, '/drive/trash')
    await expect.poll(() => rowNames(page)).toEqual(['journal.txt'])
    // Opening a trashed file offers to restore it instead of a preview (the server refuses a
    // trashed file's link): no content request, no preview.
    const contentRequests: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/drive/v1/content/')) contentRequests.push(request.url())
    })
    await driveRow(page, 'journal.txt').dblclick()
    const trashed = page.getByTestId('confirm-dialog')
    await trashed.getByRole('heading', { name: fill(en.drive.confirm.trashedTitle, { name: 'journal.txt' }) }).waitFor()
    await trashed.getByText(en.drive.confirm.trashedFileText).waitFor()
    await trashed.getByRole('button', { name: en.common.cancel }).click()
    await trashed.waitFor({ state: 'detached' })
    expect(await page.getByTestId('preview-dialog').count()).toBe(0)
    expect(contentRequests).toEqual([])
    await rowAction(page, 'journal.txt', en.drive.actions.restore)
    await toast(page, fill(en.drive.toast.restored.one, { name: 'journal.txt' }))
    await page.getByTestId('drive-empty').waitFor()
    // A full page load: server render, hydration, the session and the listing; on a busy machine
    // that takes longer than a poll's default second, so wait for the rows with Playwright's timeout.
    await page.goto(dataPath)
    await driveRow(page, 'journal.txt').waitFor()
    expect(await rowNames(page)).toEqual(['big.bin', 'journal.txt'])
  })

  test('a signed-out visit to a drive page goes to the login page and comes back after signing in', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-auth', name: 'Otto Out' })
    const { page } = await openPage()
    await page.goto('/drive/trash')
    await waitForPath(page, `/account/login?redirect=${encodeURIComponent('/drive/trash')}`)
    await submitPasswordSignIn(page, user.email, user.password)
    await waitForPath(page, '/drive/trash')
    await page.getByRole('heading', { level: 1, name: en.drive.nav.trash }).waitFor()
  })

  test('files dropped on the page upload into the folder shown, with the drop target shown while dragging', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-drop', name: 'Drew Drop' })
    const { page } = await openPage()
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await page.getByTestId('drive-empty').waitFor()
    // A drag from the desktop, as the page sees it: events carrying a DataTransfer with files.
    const drag = (type: string) =>
      page.evaluate((eventType) => {
        const transfer = new DataTransfer()
        transfer.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }))
        document.body.dispatchEvent(new DragEvent(eventType, { dataTransfer: transfer, bubbles: true, cancelable: true }))
      }, type)
    await drag('dragenter')
    await page.getByTestId('drop-overlay').getByText(fill(en.drive.upload.drop, { folder: en.drive.nav.myDrive })).waitFor()
    await drag('drop')
    await page.getByTestId('drop-overlay').waitFor({ state: 'detached' })
    await driveRow(page, 'dropped.txt').waitFor()
    await expect.poll(() => page.getByTestId('upload-title').textContent()).toBe(fill(en.drive.upload.finished.one, { count: 1 }))
  })

  test('shows uploaded photos as thumbnails in the grid layout, on a phone too, and passes axe-core there', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-grid', name: 'Grid Viewer' })
    const { page } = await openPage({ ...PHONE })
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await waitForHydration(page)
    await page.getByTestId('drive-empty').waitFor()
    const photo = (colour: string) => sharp({ create: { width: 1200, height: 900, channels: 3, background: colour } }).jpeg().toBuffer()
    const portrait = await sharp({ create: { width: 900, height: 1600, channels: 3, background: '#3355cc' } }).jpeg().toBuffer()
    const root = await localTree({ 'red.jpg': await photo('#cc3333'), 'blue.jpg': portrait, 'notes.txt': 'plain' })
    try {
      await page.getByTestId('upload-files-input').setInputFiles(['red.jpg', 'blue.jpg', 'notes.txt'].map((name) => join(root, name)))
      await expect.poll(() => page.getByTestId('upload-title').textContent()).toBe('3 uploads complete')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
    await expect.poll(async () => (await rowNames(page)).length).toBe(3)
    // The list shows the thumbnails in the icons' place, the grid as tiles.
    await expect.poll(() => page.getByTestId('row-thumbnail').evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length)).toBe(2)
    await page.getByRole('radio', { name: en.drive.toolbar.layoutGrid }).click()
    const tiles = page.getByTestId('drive-tile')
    await expect.poll(() => tiles.count()).toBe(3)
    await expect.poll(() => page.getByTestId('tile-thumbnail').evaluateAll((imgs) => imgs.map((img) => Math.max((img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight)))).toEqual([320, 320])
    // Two tiles a row on a 375 px phone, inside the screen.
    const boxes = await tiles.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, top: r.top })))
    expect(boxes[0]!.top).toBe(boxes[1]!.top)
    expect(boxes[2]!.top).toBeGreaterThan(boxes[0]!.top)
    expect(Math.max(...boxes.map((b) => b.right))).toBeLessThanOrEqual(375)
    // Every picture is cropped to the tile's 4:3 frame, whatever the photo's own shape.
    const frames = await page.getByTestId('tile-thumbnail').evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect()).map((r) => r.height / r.width))
    for (const ratio of frames) expect(ratio).toBeCloseTo(0.75, 1)
    await expectNoA11yViolations(page)
  })

  test('a long name cut in the middle keeps the space at the cut ("Tax Report", not "TaxReport")', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-names', name: 'Nina Names' })
    const { page } = await openPage()
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await waitForHydration(page)
    await page.getByTestId('drive-empty').waitFor()
    await page.getByTestId('new-folder').click()
    // Cut as "Tax " + "Report": the space ends the part that shrinks.
    await page.getByLabel(en.drive.names.newFolder.label, { exact: true }).fill('Tax Report')
    await page.keyboard.press('Enter')
    const shown = driveRow(page, 'Tax Report').getByTestId('file-name').locator('[aria-hidden="true"]')
    // innerText is what the page shows (a collapsed space is missing from it), with a line break
    // between the two flex items.
    await expect.poll(() => shown.evaluate((el) => (el as HTMLElement).innerText.replace(/\n/g, ''))).toBe('Tax Report')
  })

  // The day period is the hour's (上午, 下午, 晚上 at night …): the test passes at any hour.
  test('a desktop in Traditional Chinese shows the whole modified date ("2026年11月27日 下午4:45"), and a trashed file by its name', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-zhtw', name: '林美' })
    const { page } = await openPage({ locale: 'zh-TW', viewport: { width: 1280, height: 800 } })
    await signInWithPassword(page, user, { locale: 'zh-TW', t: zhTW })
    await page.goto('/zh-TW/drive')
    await waitForHydration(page)
    await page.getByTestId('drive-empty').waitFor()
    await page.getByTestId('upload-files-input').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') }])
    const modified = driveRow(page, 'notes.txt').getByRole('gridcell').nth(3)
    await expect.poll(() => modified.textContent()).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日 (上午|中午|下午|晚上|凌晨|清晨|早上)\d{1,2}:\d{2}$/)
    expect(await modified.evaluate((cell) => cell.scrollWidth - cell.clientWidth)).toBeLessThanOrEqual(0)
    // One item is named in the message, though Chinese has no singular form.
    await driveRow(page, 'notes.txt').getByRole('button', { name: fill(zhTW.drive.actions.menuFor, { name: 'notes.txt' }) }).click()
    await page.getByRole('menuitem', { name: zhTW.drive.actions.trash, exact: true }).click()
    await toast(page, fill(zhTW.drive.toast.trashed.one, { name: 'notes.txt' }))
  })

  test('passes axe-core with files, in light and dark, on a desktop and a phone', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-a11y', name: 'Ada Access' })
    const { page } = await openPage()
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await waitForHydration(page)
    await page.getByTestId('drive-empty').waitFor()
    await expectNoA11yViolations(page)

    const root = await localTree({ 'a.txt': 'alpha', 'b.txt': 'beta' })
    try {
      await page.getByTestId('upload-files-input').setInputFiles([join(root, 'a.txt'), join(root, 'b.txt')])
      await expect.poll(() => page.getByTestId('upload-title').textContent()).toBe('2 uploads complete')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
    await page.getByTestId('new-folder').click()
    await page.getByLabel(en.drive.names.newFolder.label, { exact: true }).fill(`Folder ${randomUUID().slice(0, 4)}`)
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await rowNames(page)).length).toBe(3)
    await driveRow(page, 'a.txt').click()

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      // The page follows the scheme a moment later (a media listener sets the class); colours
      // then change with a short transition, which expectNoA11yViolations runs to its end.
      await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark')
      await expectNoA11yViolations(page)
    }
    for (const path of ['/drive/trash', '/drive/starred']) {
      await page.goto(path)
      await waitForHydration(page)
      await page.getByTestId('drive-empty').waitFor()
      await expectNoA11yViolations(page)
    }

    const phone = await openPage({ ...PHONE })
    await signInWithPassword(phone.page, user)
    await phone.page.goto('/drive')
    await driveRow(phone.page, 'a.txt').waitFor()
    await expectNoA11yViolations(phone.page)
    // At phone width the list keeps the name and the size; the date moves under the name.
    expect(await phone.page.getByRole('columnheader', { name: en.drive.columns.modified }).isVisible()).toBe(false)
    expect(await driveRow(phone.page, 'a.txt').getByRole('button', { name: fill(en.drive.actions.menuFor, { name: 'a.txt' }) }).isVisible()).toBe(true)

    // On a narrow phone in Malay the views' row scrolls sideways: the current one is scrolled
    // into the screen (the trash tab was past its edge on the trash page), and the row fades at
    // the edge with more behind it.
    await phone.page.setViewportSize({ width: 320, height: 640 })
    await phone.page.goto('/ms/drive/trash')
    await waitForHydration(phone.page)
    const trashTab = phone.page.getByRole('link', { name: ms.drive.nav.trash, exact: true }).filter({ visible: true })
    await expect.poll(async () => {
      const box = await trashTab.boundingBox()
      return box !== null && box.x >= 0 && box.x + box.width <= 320
    }).toBe(true)
    const row = phone.page.getByRole('navigation', { name: ms.drive.nav.label }).filter({ visible: true }).getByRole('list')
    if (await row.evaluate((el) => el.scrollWidth > el.clientWidth)) expect(await row.evaluate((el) => getComputedStyle(el).maskImage)).toContain('linear-gradient')
  })

  // Regression (issue 10): with two rows selected, "Move" from one row's ⋮ menu moved only that
  // row, and the header checkbox stayed half-checked after the selected rows were trashed.
  test("a row's menu acts on the whole selection it belongs to; the header checkbox follows the rows left", async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-select', name: 'Sel Ection' })
    const { page } = await openPage()
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await page.getByTestId('drive-empty').waitFor()
    const root = await localTree({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'd.txt': 'd' })
    try {
      await page.getByTestId('upload-files-input').setInputFiles(['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((name) => join(root, name)))
      await expect.poll(() => page.getByTestId('upload-title').textContent()).toBe('4 uploads complete')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
    await page.getByTestId('new-folder').click()
    await page.getByLabel(en.drive.names.newFolder.label, { exact: true }).fill('Box')
    await page.keyboard.press('Enter')
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'a.txt', 'b.txt', 'c.txt', 'd.txt'])

    const select = (name: string) => driveRow(page, name).getByTestId('row-select').click()
    const selected = () => page.locator('[data-testid="drive-row"][aria-selected="true"]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.name))
    // A click selects one row (the new folder was selected); the checkbox adds another.
    await driveRow(page, 'a.txt').click()
    await select('b.txt')
    await expect.poll(selected).toEqual(['a.txt', 'b.txt'])
    await rowAction(page, 'b.txt', en.drive.actions.move)
    const picker = page.getByTestId('folder-picker')
    await picker.getByRole('heading', { name: fill(en.drive.picker.moveTitle.other, { count: 2 }) }).waitFor()
    await picker.getByRole('button', { name: fill(en.drive.picker.open, { name: 'Box' }) }).click()
    await picker.getByText(en.drive.picker.empty).waitFor()
    await picker.getByRole('button', { name: en.drive.picker.moveHere }).click()
    await toast(page, fill(en.drive.toast.moved.other, { count: 2, folder: 'Box' }))
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'c.txt', 'd.txt'])

    // A row outside the selection: its menu acts on it alone, and it becomes the selection.
    await select('c.txt')
    await driveRow(page, 'd.txt').getByRole('button', { name: fill(en.drive.actions.menuFor, { name: 'd.txt' }) }).click()
    await expect.poll(selected).toEqual(['d.txt'])
    await page.keyboard.press('Escape')
    // Dismissed without an action, the menu gives back the selection it replaced.
    await expect.poll(selected).toEqual(['c.txt'])

    const header = page.getByTestId('select-all')
    await select('d.txt')
    await expect.poll(() => header.getAttribute('aria-pressed')).toBe('mixed')
    await rowAction(page, 'c.txt', en.drive.actions.trash)
    await toast(page, fill(en.drive.toast.trashed.other, { count: 2 }))
    await expect.poll(() => rowNames(page)).toEqual(['Box'])
    await expect.poll(() => header.getAttribute('aria-pressed')).toBe('false')
    await expect.poll(selected).toEqual([])
  })

  // Regression (issue 10): on a 375 px phone the upload panel covered 60% of the screen and the
  // last rows under it.
  test('on a phone the upload panel collapses to its summary while uploads run, and the last row scrolls clear of it', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'drive-phone', name: 'Phil Phone' })
    const { page, context } = await openPage({ ...PHONE })
    await signInWithPassword(page, user)
    await page.goto('/drive')
    await page.getByTestId('drive-empty').waitFor()
    const names = Array.from({ length: 14 }, (_, index) => `file-${String(index).padStart(2, '0')}.txt`)
    const root = await localTree({ ...Object.fromEntries(names.map((name) => [name, name])), 'slow.bin': patternBytes(2 * MiB) })
    const throttle = await uploadThrottle(context, page)
    try {
      await page.getByTestId('upload-files-input').setInputFiles(names.map((name) => join(root, name)))
      await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe(fill(en.drive.upload.finished.other, { count: 14 }))
      await page.getByRole('button', { name: en.drive.upload.close }).click()
      await page.getByTestId('upload-panel').waitFor({ state: 'detached' })
      // A slow upload keeps the panel running.
      await throttle.set(64 * 1024)
      await page.getByTestId('upload-files-input').setInputFiles(join(root, 'slow.bin'))
      const panel = page.getByTestId('upload-panel')
      await expect.poll(() => panel.getAttribute('data-collapsed')).toBe('true')
      // Collapsed, it shows the summary and stays small.
      expect(await page.getByTestId('upload-title').textContent()).toBe(fill(en.drive.upload.uploading.one, { count: 1 }))
      expect(await panel.textContent()).toMatch(/ of 2\u00a0MiB/)
      const collapsedBox = (await panel.boundingBox())!
      expect(collapsedBox.height).toBeLessThan(PHONE_HEIGHT * 0.2)

      // Scrolled to the end, the last row is above the panel, not under it.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
      const last = driveRow(page, names[names.length - 1]!)
      await last.waitFor()
      await expect.poll(async () => (await last.boundingBox())!.y + (await last.boundingBox())!.height).toBeLessThanOrEqual(collapsedBox.y)

      // Expanded on request, then collapsed again.
      await page.getByRole('button', { name: en.drive.upload.expand }).click()
      await expect.poll(() => panel.getAttribute('data-collapsed')).toBe('false')
      await page.getByTestId('upload-row').first().waitFor()
      expect((await panel.boundingBox())!.height).toBeLessThanOrEqual(PHONE_HEIGHT * 0.5 + 1)
      await page.getByRole('button', { name: en.drive.upload.collapse }).click()
      await expect.poll(() => panel.getAttribute('data-collapsed')).toBe('true')
      await expectNoA11yViolations(page)
    } finally {
      await throttle.set(null)
      await rm(root, { recursive: true, force: true })
    }
  })

  // Regression (issue 10): /drive was server-rendered with a signed-out header ("Sign in") that a
  // signed-in user saw until the page had hydrated, and a full-page spinner in place of the drive.
  test('the server renders a neutral header and a busy skeleton of the drive; after hydration the signed-in user sees the account link, never Sign in', async ({ openPage, server }) => {
    const html = await (await fetch(`${server.url}/drive`)).text()
    // The drive's layout in grey (toolbar, rows), busy; no spinner.
    expect(html).toMatch(/<div[^>]*aria-busy="true"[^>]*data-testid="drive-skeleton"/)
    expect(html).toContain('data-testid="drive-skeleton-rows"')
    expect(html).not.toContain('data-testid="spinner"')
    expect(html).toContain('data-testid="session-pending"')
    expect(html).not.toContain('data-testid="header-sign-in"')
    expect(html).not.toContain('data-testid="header-account"')
    expect(html).not.toContain(`>${en.common.nav.signIn}<`)
    expect(html).not.toContain(`>${en.common.nav.account}<`)
    expect(html).not.toContain('href="/account/login"')
    expect(html).toContain('data-testid="header-drive"')

    const user = await seedUser(server, { label: 'drive-header', name: 'Hedda Header' })
    const { page } = await openPage()
    await signInWithPassword(page, user)
    // Before any of the page's scripts: note every "Sign in" link that ever reaches the document.
    await page.addInitScript(() => {
      ;(window as unknown as { signInSeen: number }).signInSeen = 0
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="header-sign-in"]')) (window as unknown as { signInSeen: number }).signInSeen += 1
      }).observe(document, { childList: true, subtree: true })
    })
    await page.goto('/drive')
    await page.getByTestId('header-account').waitFor()
    await page.getByTestId('drive-empty').waitFor()
    expect(await page.getByTestId('drive-skeleton').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { signInSeen: number }).signInSeen)).toBe(0)
    expect(await page.getByTestId('session-pending').count()).toBe(0)
  })
})
