// The archive page in a real browser against the real server: a signed-in user uploads a 7z
// whose names are encrypted, opens /decompress/{id}, is asked for the password, gives a wrong
// one and then the right one, browses into a folder and back, in English and on a 375 px phone
// in Korean.
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
import { driveRow, rowAction } from './drive-utils'
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
  test('asks for the password, refuses a wrong one, then browses folders (desktop, English)', async ({ server, openPage }) => {
    const { page } = await openPage()
    const user = await seedUser(server, { label: 'archive', name: 'Ada' })
    await signInWithPassword(page, user)
    const id = await uploadArchive(page, 'secret.7z', await lockedArchive(), en)
    // The drive's row menu leads there.
    await rowAction(page, 'secret.7z', en.drive.actions.openArchive)
    await page.waitForURL((url) => url.pathname.endsWith(`/decompress/${id}`))
    await browse(page, id, 'en-US', en)
  })

  test('works the same on a phone in Korean', async ({ server, openPage }) => {
    const { page } = await openPage(PHONE)
    const user = await seedUser(server, { label: 'archive-ko', name: '지민' })
    await page.goto(`${prefixOf('ko')}/account/login`)
    await signInWithPassword(page, user, { locale: 'ko', t: ko })
    const id = await uploadArchive(page, 'secret.7z', await lockedArchive(), ko)
    await browse(page, id, 'ko', ko)
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
})
