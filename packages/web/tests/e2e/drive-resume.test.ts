// Resuming uploads after the page went away: an upload interrupted by a reload is listed as
// unfinished; choosing the same file again continues it from the offset the server kept (the
// first PATCH after the reload does not start at 0), and the stored file downloads byte for
// byte. A folder interrupted the same way goes on as a whole when the folder is chosen again:
// the files that had started and those that had not, each once, into the folders made before.
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import { fill, seedUser, signInWithPassword } from './account-utils'
import { driveRow, localTree, patternBytes, rowAction, rowNames, uploadThrottle } from './drive-utils'
import { test, waitForHydration } from './playwright-utils'

const MiB = 1024 * 1024

test('an upload interrupted by a reload continues from where it stopped when the file is chosen again', async ({ openPage, server }) => {
  const user = await seedUser(server, { label: 'drive-resume', name: 'Rey Resume' })
  const { page, context } = await openPage()
  // Leaving a page with a running upload asks first; the test says yes.
  page.on('dialog', (dialog) => void dialog.accept())
  await signInWithPassword(page, user)
  await page.goto('/drive')
  await page.getByTestId('drive-empty').waitFor()

  const content = patternBytes(6 * MiB, 99)
  const root = await localTree({ 'movie.bin': content })
  try {
    const throttle = await uploadThrottle(context, page)
    await throttle.set(512 * 1024)
    await page.getByTestId('upload-files-input').setInputFiles(join(root, 'movie.bin'))
    const bar = page.getByRole('progressbar', { name: fill(en.drive.upload.progress, { name: 'movie.bin' }) })
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThanOrEqual(15)

    await page.reload()
    await waitForHydration(page)
    const earlier = page.getByTestId('earlier-uploads')
    // The name is shown cut to fit and read whole by screen readers (FileName): find it by its title.
    await earlier.getByTitle('movie.bin', { exact: true }).waitFor()
    expect(await earlier.getByText(en.drive.upload.earlier.title).count()).toBe(1)

    const offsets: number[] = []
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/drive/v1/uploads/')) offsets.push(Number(request.headers()['upload-offset']))
    })
    await throttle.set(null)
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), earlier.getByRole('button', { name: en.drive.upload.earlier.chooseFiles }).click()])
    await chooser.setFiles(join(root, 'movie.bin'))
    await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe(fill(en.drive.upload.finished.one, { count: 1 }))
    expect(offsets.length).toBeGreaterThan(0)
    expect(offsets[0]).toBeGreaterThan(0)
    expect(offsets[0]).toBeLessThan(content.length)

    // The file is whole: the download through its signed link is the same bytes.
    await driveRow(page, 'movie.bin').waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), rowAction(page, 'movie.bin', en.drive.actions.download)])
    expect(download.suggestedFilename()).toBe('movie.bin')
    const saved = await readFile(await download.path())
    expect(saved.length).toBe(content.length)
    expect(Buffer.compare(saved, Buffer.from(content))).toBe(0)
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})

test('a folder upload interrupted by a reload goes on as a whole when the folder is chosen again', async ({ openPage, server }) => {
  const user = await seedUser(server, { label: 'drive-resume-folder', name: 'Fay Folder' })
  const { page, context } = await openPage()
  page.on('dialog', (dialog) => void dialog.accept())
  await signInWithPassword(page, user)
  await page.goto('/drive')
  await page.getByTestId('drive-empty').waitFor()

  // Five files, three at a time: when the page reloads, two have not started.
  const names = ['a.bin', 'b.bin', 'c.bin', 'd.bin', 'e.bin']
  const root = await localTree(Object.fromEntries(names.map((name, i) => [`album/${i < 2 ? '' : 'more/'}${name}`, patternBytes(MiB, i + 1)])))
  try {
    const throttle = await uploadThrottle(context, page)
    await throttle.set(256 * 1024)
    await page.getByTestId('upload-folder-input').setInputFiles(join(root, 'album'))
    const first = page.getByRole('progressbar', { name: fill(en.drive.upload.progress, { name: 'a.bin' }) })
    await expect.poll(async () => Number(await first.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0)

    await page.reload()
    await waitForHydration(page)
    const earlier = page.getByTestId('earlier-uploads')
    await earlier.getByTestId('earlier-upload').filter({ hasText: 'album' }).filter({ hasText: fill(en.drive.upload.earlier.filesLeft.other, { count: 5 }) }).waitFor()

    await throttle.set(null)
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), earlier.getByRole('button', { name: en.drive.upload.earlier.chooseFolder }).click()])
    await chooser.setFiles(join(root, 'album'))
    await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe(fill(en.drive.upload.finished.other, { count: 5 }))

    // One album, each file once, in the folders it had before the reload.
    await expect.poll(() => rowNames(page)).toEqual(['album'])
    await driveRow(page, 'album').dblclick()
    await expect.poll(() => rowNames(page)).toEqual(['more', 'a.bin', 'b.bin'])
    await driveRow(page, 'more').dblclick()
    await expect.poll(() => rowNames(page)).toEqual(['c.bin', 'd.bin', 'e.bin'])
  } finally {
    await rm(root, { recursive: true, force: true })
  }
})
