// The archive page in a real browser against the real server: a signed-in user uploads a 7z
// whose names are encrypted, opens /decompress/{id}, is asked for the password, gives a wrong
// one and then the right one, browses into a folder and back, then unpacks (the photos folder
// in English, everything on a 375 px phone in Korean) into a new folder beside the archive,
// follows the progress to the end and opens the folder in the drive.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import { fill, prefixOf, seedUser, signInWithPassword, type Texts } from './account-utils'
import { driveRow, rowAction, rowNames } from './drive-utils'
import { e2eTest, expectNoA11yViolations, PHONE } from './playwright-utils'

const test = e2eTest()
const PASSWORD = 'OpenSesame'

/** A 7z with encrypted names (7zz -mhe=on): photos/2024/a.jpg, photos/b.png, readme.txt. */
async function lockedArchive(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'cumulus-decompress-e2e-'))
  try {
    const src = join(dir, 'src')
    await mkdir(join(src, 'photos', '2024'), { recursive: true })
    await writeFile(join(src, 'readme.txt'), 'hello\n')
    await writeFile(join(src, 'photos', '2024', 'a.jpg'), Buffer.alloc(1000, 1))
    await writeFile(join(src, 'photos', 'b.png'), Buffer.alloc(300, 2))
    await promisify(execFile)('7zz', ['a', '-t7z', `-p${PASSWORD}`, '-mhe=on', join(dir, 'locked.7z'), '.'], { cwd: src })
    return await readFile(join(dir, 'locked.7z'))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Uploads the archive through the drive page and returns its file id. */
async function uploadArchive(page: Page, name: string, content: Buffer, t: Texts): Promise<string> {
  await page.goto(`${prefixOf(page.url().includes('/ko/') ? 'ko' : 'en-US')}/drive`)
  await page.getByTestId('drive-empty').waitFor()
  await page.getByTestId('upload-files-input').setInputFiles([{ name, mimeType: 'application/x-7z-compressed', buffer: content }])
  await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe(fill(t.drive.upload.finished.one, { count: 1 }))
  const id = await driveRow(page, name).getAttribute('data-id')
  expect(id).toBeTruthy()
  return id!
}

/** axe-core in the light and the dark theme (the system's, emulated), back to light after. */
async function expectNoA11yViolationsLightAndDark(page: Page): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark')
    await expectNoA11yViolations(page)
  }
}

/**
 * From the archive's top level: unpacks what is selected into a new folder beside the archive,
 * waits for the progress panel to say it is done, and opens the folder in the drive.
 */
async function unpackAndOpen(page: Page, t: Texts, button: string): Promise<void> {
  const texts = t.drive.unpack
  const beside = page.getByRole('radio', { name: texts.destination.beside })
  await beside.check()
  expect(await beside.isChecked()).toBe(true)
  await page.getByRole('button', { name: button, exact: true }).click()
  const panel = page.getByTestId('unpack-progress')
  await panel.waitFor()
  // The task's progress, polled until it is complete: the bar at 100 and the folder's link.
  await panel.getByRole('heading', { name: texts.progress.complete }).waitFor({ timeout: 30_000 })
  expect(await panel.getByRole('progressbar', { name: texts.progress.label }).getAttribute('aria-valuenow')).toBe('100')
  expect(new URL(page.url()).searchParams.get('task_id')).toBeTruthy()
  // Nothing past the screen's edge (a 375 px phone included).
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  await expectNoA11yViolationsLightAndDark(page)
  await panel.getByRole('link', { name: texts.progress.open }).click()
  await page.waitForURL((url) => /\/drive\/[^/]+$/.test(url.pathname))
}

async function browse(page: Page, id: string, locale: string, t: Texts): Promise<void> {
  const texts = t.pages.decompress
  if (!new URL(page.url()).pathname.endsWith(`/decompress/${id}`)) await page.goto(`${prefixOf(locale)}/decompress/${id}`)
  await page.getByText(texts.passwordPrompt).waitFor()
  const field = page.getByLabel(texts.passwordLabel, { exact: true })
  await field.fill('guess')
  await page.getByRole('button', { name: texts.passwordSubmit }).click()
  await page.getByText(texts.passwordWrong).waitFor()
  await expectNoA11yViolations(page)
  await field.fill(PASSWORD)
  await page.getByRole('button', { name: texts.passwordSubmit }).click()
  const table = page.getByRole('table', { name: texts.tableCaption })
  await table.waitFor()
  // The heading names the archive, not its id.
  await page.getByText('secret.7z', { exact: true }).first().waitFor()
  expect(await page.getByText(id).count()).toBe(0)
  expect(await table.getByRole('row').allTextContents()).toEqual([
    expect.stringContaining(texts.columns.name),
    expect.stringMatching(/^photos.*1\.3/),
    expect.stringMatching(/^readme\.txt/),
  ])
  await table.getByRole('button', { name: 'photos' }).click()
  await table.getByRole('button', { name: '2024' }).waitFor()
  const crumbs = page.getByRole('navigation', { name: texts.breadcrumb })
  expect(await crumbs.locator('[aria-current="page"]').textContent()).toBe('photos')
  await expectNoA11yViolations(page)
  expect(await table.getByRole('row').allTextContents()).toEqual([expect.stringContaining(texts.columns.name), expect.stringMatching(/^2024/), expect.stringMatching(/^b\.png/)])
  // Back to the top through the breadcrumb, which starts with the archive's name.
  await crumbs.getByRole('button', { name: 'secret.7z' }).click()
  await table.getByRole('button', { name: 'photos' }).waitFor()
}

describe('the archive page', () => {
  test('asks for the password, refuses a wrong one, browses folders, then unpacks the photos folder (desktop, English)', async ({ server, openPage }) => {
    const { page, errors } = await openPage()
    // a.jpg is 1,000 bytes of 0x01, not a picture: the drive offers its thumbnail, which the
    // server cannot make and answers 404 (the list shows the icon instead).
    errors.ignore(/^console\.error: Failed to load resource: the server responded with a status of 404 .*\/drive\/v1\/thumbnails\//)
    const user = await seedUser(server, { label: 'archive', name: 'Ada' })
    await signInWithPassword(page, user)
    const id = await uploadArchive(page, 'secret.7z', await lockedArchive(), en)
    // The drive's row menu leads there.
    await rowAction(page, 'secret.7z', en.drive.actions.unpack)
    await page.waitForURL((url) => url.pathname.endsWith(`/decompress/${id}`))
    // The way back leads to the folder the archive is in (My drive here), the archive selected.
    await expect.poll(() => page.getByRole('link', { name: en.pages.decompress.backToFolder, exact: true }).getAttribute('href')).toBe(`/drive?select=${id}`)
    await browse(page, id, 'en-US', en)

    // Nothing chosen: everything would be unpacked.
    const texts = en.drive.unpack
    const summary = page.getByTestId('unpack-summary')
    expect(await summary.textContent()).toBe(texts.nothingSelected)
    await page.getByRole('button', { name: texts.unpackAll, exact: true }).waitFor()
    // The photos folder chosen at the top stays chosen inside it, with everything it holds.
    const table = page.getByRole('table', { name: en.pages.decompress.tableCaption })
    // Chosen by a tap at the corner of its 40 px target, not on the 16 px box itself.
    const photosBox = table.getByRole('checkbox', { name: fill(texts.selectEntry, { name: 'photos' }) })
    const photosTarget = photosBox.locator('xpath=..')
    const bounds = await photosTarget.boundingBox()
    expect(Math.min(bounds?.width ?? 0, bounds?.height ?? 0)).toBeGreaterThanOrEqual(40)
    await photosTarget.click({ position: { x: 3, y: 3 } })
    expect(await photosBox.isChecked()).toBe(true)
    expect(await summary.textContent()).toBe(fill(en.drive.selection.count.one, { count: 1 }))
    await table.getByRole('button', { name: 'photos' }).click()
    await table.getByRole('button', { name: '2024' }).waitFor()
    expect(await table.getByRole('checkbox', { name: texts.selectLevel }).isChecked()).toBe(true)
    expect(await table.getByRole('checkbox', { name: fill(texts.selectEntry, { name: 'b.png' }) }).isChecked()).toBe(true)
    await expectNoA11yViolations(page)
    await page.getByRole('navigation', { name: en.pages.decompress.breadcrumb }).getByRole('button', { name: 'secret.7z' }).click()
    await table.getByRole('button', { name: 'photos' }).waitFor()
    expect(await table.getByRole('checkbox', { name: fill(texts.selectEntry, { name: 'readme.txt' }) }).isChecked()).toBe(false)

    await unpackAndOpen(page, en, fill(texts.unpackSelected.one, { count: 1 }))
    // A folder named after the archive, holding only the photos folder and what it holds.
    await page.getByRole('heading', { level: 1, name: 'secret' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['photos'])
    await driveRow(page, 'photos').dblclick()
    await page.getByRole('heading', { level: 1, name: 'photos' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['2024', 'b.png'])
    await driveRow(page, '2024').dblclick()
    await page.getByRole('heading', { level: 1, name: '2024' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['a.jpg'])
  })

  test('works the same on a phone in Korean, unpacking everything', async ({ server, openPage }) => {
    const { page } = await openPage(PHONE)
    const user = await seedUser(server, { label: 'archive-ko', name: '지민' })
    await page.goto(`${prefixOf('ko')}/account/login`)
    await signInWithPassword(page, user, { locale: 'ko', t: ko })
    const id = await uploadArchive(page, 'secret.7z', await lockedArchive(), ko)
    await browse(page, id, 'ko', ko)
    // Nothing overflows the phone's width.
    const width = () => page.evaluate(() => document.documentElement.scrollWidth)
    expect(await width()).toBeLessThanOrEqual(375)
    expect(await page.getByTestId('unpack-summary').textContent()).toBe(ko.drive.unpack.nothingSelected)
    await expectNoA11yViolationsLightAndDark(page)

    // Choosing a folder only sets where to unpack: the picker's button says so, and nothing starts.
    await page.getByRole('radio', { name: ko.drive.unpack.destination.choose }).check()
    await page.getByRole('dialog').getByRole('button', { name: ko.drive.unpack.destination.pick, exact: true }).click()
    await expect.poll(() => page.getByTestId('unpack-folder').textContent()).toContain(ko.drive.nav.myDrive)
    expect(await page.getByTestId('unpack-progress').count()).toBe(0)

    await unpackAndOpen(page, ko, ko.drive.unpack.unpackAll)
    await page.getByRole('heading', { level: 1, name: 'secret' }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['photos', 'readme.txt'])
    expect(await width()).toBeLessThanOrEqual(375)
  })
})
