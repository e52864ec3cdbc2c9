// Drive search in a real browser against the real server (issue 15): a signed-in user uploads
// "Quarterly report.pdf", "中国地图.png" and "notes.txt" into a folder, types in the drive's
// search box and sees suggestions from the first character with the match marked, finds the
// Chinese name by its pinyin initials, runs the full search with Enter, opens a result's folder
// (the result selected there) and comes back, renames a result from its row menu and finds it
// by its new name. In English on a desktop, then in Simplified Chinese on a 375 px phone, where
// the box is an icon until tapped. axe-core on the box's list and on the results, light and dark.
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import zhCN from '../../app/locales/zh-CN/index'
import { fill, prefixOf, seedUser, signInWithPassword, type Texts } from './account-utils'
import { driveRow, rowAction, rowNames, toast } from './drive-utils'
import { e2eTest, expectNoA11yViolations, PHONE } from './playwright-utils'

const test = e2eTest()

/** A real 1×1 PNG, so the picture's thumbnail can be made like any other. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const FILES = [
  { name: 'Quarterly report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% not really a report\n') },
  { name: '中国地图.png', mimeType: 'image/png', buffer: PNG },
  { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('remember the milk\n') },
]

/** Makes the folder `folder` in My drive, opens it and uploads the three files into it. */
async function uploadIntoFolder(page: Page, locale: string, t: Texts, folder: string): Promise<void> {
  await page.goto(`${prefixOf(locale)}/drive`)
  await page.getByTestId('drive-empty').waitFor()
  // The bar's New folder is a text button on a desktop and an icon on a phone; both are named.
  await page.getByRole('toolbar', { name: t.drive.toolbar.label }).getByRole('button', { name: t.drive.toolbar.newFolder }).locator('visible=true').click()
  const field = page.getByLabel(t.drive.names.newFolder.label, { exact: true })
  await field.fill(folder)
  await field.press('Enter')
  await driveRow(page, folder).dblclick()
  await page.getByRole('heading', { level: 1, name: folder }).waitFor()
  await page.getByTestId('upload-files-input').setInputFiles(FILES)
  await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe(fill(t.drive.upload.finished.other, { count: FILES.length }))
  await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(FILES.map((file) => file.name)))
}

/** The search box (the drive's bar has one combobox; the results page adds its filters' selects). */
function searchBox(page: Page, t: Texts) {
  return page.getByRole('combobox', { name: t.drive.search.label, exact: true })
}

/** A suggestion in the box's list, by the name it offers. */
function suggestion(page: Page, t: Texts, name: string) {
  return page.getByRole('listbox', { name: t.drive.search.suggestions }).getByRole('option').filter({ hasText: name })
}

/** Types `text` a key at a time, as a person would (each key may bring new suggestions). */
async function typeInto(page: Page, t: Texts, text: string): Promise<void> {
  const box = searchBox(page, t)
  await box.fill('')
  await box.pressSequentially(text)
}

/** axe-core in the dark and the light theme (the system's, emulated), back to light after. */
async function expectNoA11yViolationsLightAndDark(page: Page): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForFunction((dark) => document.documentElement.classList.contains('dark') === dark, scheme === 'dark')
    await expectNoA11yViolations(page)
  }
}

/** The text of each <mark> in an option. */
function marks(option: ReturnType<typeof suggestion>): Promise<string[]> {
  return option.locator('mark').allTextContents()
}

describe('drive search', () => {
  test('suggests from the first letter and by pinyin, runs the full search, opens a result’s folder and finds a renamed result (desktop, English)', async ({ server, openPage }) => {
    const { page } = await openPage()
    const user = await seedUser(server, { label: 'search', name: 'Ada' })
    await signInWithPassword(page, user)
    await uploadIntoFolder(page, 'en-US', en, 'Reports')
    const box = searchBox(page, en)

    // One letter: a suggestion with the matched letter marked, its icon and its folder.
    await typeInto(page, en, 'q')
    const quarterly = suggestion(page, en, 'Quarterly report.pdf')
    await quarterly.waitFor()
    expect(await box.getAttribute('aria-expanded')).toBe('true')
    expect(await marks(quarterly)).toEqual(['Q'])
    expect(await quarterly.textContent()).toContain('Reports')
    await expectNoA11yViolationsLightAndDark(page)

    // Pinyin initials find the Chinese name.
    await typeInto(page, en, 'zg')
    const map = suggestion(page, en, '中国地图.png')
    await map.waitFor()
    expect((await marks(map)).join('')).not.toBe('')

    // The keyboard: Down highlights, Escape closes, Enter with nothing highlighted runs the search.
    // ("Reports", the folder, starts with the query: it comes first.)
    await typeInto(page, en, 'report')
    await quarterly.waitFor()
    const options = page.getByRole('listbox', { name: en.drive.search.suggestions }).getByRole('option')
    expect(await options.allTextContents()).toEqual([expect.stringMatching(/^Reports/), expect.stringMatching(/^Quarterly report\.pdfReports/)])
    await box.press('ArrowDown')
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'))
    await box.press('Escape')
    expect(await box.getAttribute('aria-expanded')).toBe('false')
    await box.press('Enter')
    await page.waitForURL((url) => url.pathname === '/search/associate' && url.searchParams.get('q') === 'report')
    await page.getByRole('heading', { level: 1, name: fill(en.drive.search.resultsFor, { query: 'report' }) }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['Reports', 'Quarterly report.pdf'])
    expect(await page.getByTestId('item-count').textContent()).toBe(fill(en.drive.search.count.other, { count: 2 }))
    await expectNoA11yViolationsLightAndDark(page)

    // The result's folder opens with the result selected; Back returns to the results.
    await driveRow(page, 'Quarterly report.pdf').getByRole('link', { name: 'Reports' }).click()
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor()
    await expect.poll(() => driveRow(page, 'Quarterly report.pdf').getAttribute('aria-selected')).toBe('true')
    expect(new URL(page.url()).search).toBe('')
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/search/associate')
    await expect.poll(() => rowNames(page)).toEqual(['Reports', 'Quarterly report.pdf'])

    // A result renamed from its row menu stays in place, and a new search finds the new name.
    await rowAction(page, 'Quarterly report.pdf', en.drive.actions.rename)
    const name = page.getByLabel(en.drive.names.rename.label, { exact: true })
    await name.fill('Annual summary.pdf')
    await name.press('Enter')
    await toast(page, fill(en.drive.toast.renamed, { name: 'Annual summary.pdf' }))
    await expect.poll(() => rowNames(page)).toEqual(['Reports', 'Annual summary.pdf'])
    await typeInto(page, en, 'summary')
    await box.press('Enter')
    await page.waitForURL((url) => url.searchParams.get('q') === 'summary')
    await expect.poll(() => rowNames(page)).toEqual(['Annual summary.pdf'])
    expect(await driveRow(page, 'Annual summary.pdf').getByRole('link').textContent()).toBe('Reports')

    // The old name no longer finds it; the recent searches are offered in an empty box.
    await typeInto(page, en, 'quarterly')
    await box.press('Enter')
    await page.getByTestId('search-empty').waitFor()
    await box.fill('')
    await expect.poll(() => page.getByRole('listbox', { name: en.drive.search.recent }).getByRole('option').allTextContents()).toEqual(['quarterly', 'summary', 'report'])
  })

  test('works on a phone in Simplified Chinese: the box opens from its icon, pinyin finds the map and opens its folder', async ({ server, openPage }) => {
    const { page } = await openPage({ ...PHONE, locale: 'zh-CN' })
    const t = zhCN
    const user = await seedUser(server, { label: 'search-zh', name: '小明' })
    await page.goto(`${prefixOf('zh-CN')}/account/login`)
    await signInWithPassword(page, user, { locale: 'zh-CN', t })
    await uploadIntoFolder(page, 'zh-CN', t, '地图')
    await page.goto(`${prefixOf('zh-CN')}/drive`)
    await driveRow(page, '地图').waitFor()

    // On a phone the box is an icon until tapped; then it covers the bar.
    const box = searchBox(page, t)
    expect(await box.isVisible()).toBe(false)
    await page.getByRole('button', { name: t.drive.search.open }).tap()
    await box.waitFor()
    await typeInto(page, t, '中')
    const map = suggestion(page, t, '中国地图.png')
    await map.waitFor()
    expect(await marks(map)).toEqual(['中'])
    await typeInto(page, t, 'zhongguo')
    await map.waitFor()
    const width = () => page.evaluate(() => document.documentElement.scrollWidth)
    expect(await width()).toBeLessThanOrEqual(375)
    await expectNoA11yViolationsLightAndDark(page)

    // A file suggestion opens its folder with the file selected.
    await map.tap()
    await page.waitForURL((url) => /^\/zh-CN\/drive\/[^/]+$/.test(url.pathname))
    await page.getByRole('heading', { level: 1, name: '地图' }).waitFor()
    await expect.poll(() => driveRow(page, '中国地图.png').getAttribute('aria-selected')).toBe('true')

    // The full search on the phone: results with their folder, nothing past the screen's edge.
    await page.getByRole('button', { name: t.drive.search.open }).tap()
    await typeInto(page, t, 'zg')
    await map.waitFor()
    await box.press('Enter')
    await page.waitForURL((url) => url.pathname === '/zh-CN/search/associate' && url.searchParams.get('q') === 'zg')
    await page.getByRole('heading', { level: 1, name: fill(t.drive.search.resultsFor, { query: 'zg' }) }).waitFor()
    await expect.poll(() => rowNames(page)).toEqual(['中国地图.png'])
    expect(await driveRow(page, '中国地图.png').getByRole('link').textContent()).toBe('地图')
    expect(await width()).toBeLessThanOrEqual(375)
    // The four filters wrap on a phone: each is whole on the screen, none a sliver at its edge.
    for (const name of ['kind', 'category', 'modified', 'size']) {
      const filter = await page.getByTestId(`search-filter-${name}`).boundingBox()
      expect(filter!.x + filter!.width).toBeLessThanOrEqual(375)
    }
    await expectNoA11yViolationsLightAndDark(page)
  })
})
