// The drive pages in a real browser against the real server: a newcomer signs up, uploads a
// folder (with progress visible while the upload is slowed down), opens it, previews a video
// (the browser streams it from the signed link with Range requests), renames, moves, trashes
// and restores a file; files dropped on the page upload; and the pages pass axe-core in both
// themes, on a desktop and a phone.
import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import { fill, PASSWORD, seedUser, signInWithPassword, submitEmailSignUp, submitPasswordSignIn, uniqueEmail, waitForPath } from './account-utils'
import { driveRow, localTree, patternBytes, recordWebm, rowAction, rowNames, toast, uploadThrottle } from './drive-utils'
import { expectNoA11yViolations, PHONE, test, waitForHydration } from './playwright-utils'

const MiB = 1024 * 1024

describe('the drive', () => {
  test('sign up, upload a folder, preview its video, rename, move, trash and restore', async ({ openPage, server }) => {
    const { page, context } = await openPage()
    await page.goto('/account/login')
    await submitEmailSignUp(page, server, { email: uniqueEmail('drive'), password: PASSWORD, name: 'Dana Drive' })
    await waitForPath(page, '/account/home')

    // The header leads signed-in users to their drive; a new drive is empty.
    await page.getByTestId('header-drive').click()
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
      // "1.2 MB of 3 MB · 1 MB/s": bytes sent, the total and the speed.
      await expect.poll(() => bigRow.getByTestId('upload-status').textContent(), { timeout: 15_000 }).toMatch(/ of 3 MB · .+\/s$/)
      await throttle.set(null)
      await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe('3 uploads complete')
    } finally {
      await rm(root, { recursive: true, force: true })
    }

    // The folder was rebuilt: trip/ with data/ inside it.
    await driveRow(page, 'trip').waitFor()
    await expect.poll(() => page.getByTestId('quota-text').first().textContent(), { timeout: 5_000 }).toMatch(/^3 MB of .+ used$/)
    await driveRow(page, 'trip').dblclick()
    await page.getByRole('heading', { level: 1, name: 'trip' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['data', 'clip.webm', 'notes.txt'])
    const tripPath = new URL(page.url()).pathname
    expect(tripPath).toMatch(/^\/drive\/[^/]+$/)

    // The video plays from the signed link, which the browser reads with Range requests.
    const ranged: number[] = []
    page.on('response', (response) => {
      if (response.url().includes('/drive/v1/content/') && response.request().headers().range) ranged.push(response.status())
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
    await rowAction(page, 'journal.txt', en.drive.actions.restore)
    await toast(page, fill(en.drive.toast.restored.one, { name: 'journal.txt' }))
    await page.getByTestId('drive-empty').waitFor()
    await page.goto(dataPath)
    await expect.poll(() => rowNames(page)).toEqual(['big.bin', 'journal.txt'])
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
  })
})
