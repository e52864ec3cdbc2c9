// A folder of 100,000 files in a real browser: the list pages in as the user goes down (cursor
// pages of 200), the DOM keeps a window of rows whatever the length, and any part of the list
// shows the right rows. The list calls are answered inside the page so the folder needs no
// 100,000 real files; the service's own large-folder paging is tested in packages/drive.
import { expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import { fill, seedUser, signInWithPassword } from './account-utils'
import { rowNames } from './drive-utils'
import { test } from './playwright-utils'

const TOTAL = 100_000

// 500 pages arrive a few animation frames apart (the browser scrolls and renders once a frame),
// about half a minute in all: longer than the e2e default allows.
test('a folder of 100,000 files pages in as the list scrolls and keeps a small DOM', { timeout: 180_000 }, async ({ openPage, server }) => {
  const user = await seedUser(server, { label: 'drive-large', name: 'Lara Large' })
  const { page } = await openPage()
  await signInWithPassword(page, user)
  // The folder's list calls are answered inside the page (a wrapped fetch); every other call
  // goes to the server.
  await page.addInitScript((total) => {
    const real = window.fetch.bind(window)
    const w = window as unknown as { listPages: number }
    w.listPages = 0
    window.fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href)
      if (url.pathname !== '/drive/v1/files' || (init?.method ?? 'GET') !== 'GET') return real(input, init)
      const start = Number(url.searchParams.get('page_token') || '0')
      const end = Math.min(total, start + Number(url.searchParams.get('limit') || '100'))
      w.listPages += 1
      const time = '2026-01-01T00:00:00Z'
      const files = Array.from({ length: end - start }, (_, i) => ({
        kind: 'drive#file', id: `id${start + i}`, parent_id: '', name: `file ${String(start + i).padStart(6, '0')}.txt`, user_id: 'u', size: '1024', revision: '1',
        file_extension: '.txt', mime_type: 'text/plain', file_category: 'TEXT', folder_type: 'NORMAL', hash: '', md5_checksum: '', phase: 'PHASE_TYPE_COMPLETE',
        trashed: false, starred: false, created_time: time, modified_time: time, delete_time: '', thumbnail_link: '', icon_link: '', web_content_link: '',
        links: {}, medias: [], audit: { status: 'STATUS_OK', message: '', title: '' }, params: {}, space: '', writable: true,
      }))
      return new Response(JSON.stringify({ kind: 'drive#fileList', files, next_page_token: end < total ? String(end) : '', version: '' }), { headers: { 'content-type': 'application/json' } })
    }
  }, TOTAL)
  await page.goto('/drive')
  const grid = page.getByRole('grid', { name: fill(en.drive.list.label, { folder: en.drive.nav.myDrive }) })
  await grid.waitFor()
  expect((await rowNames(page))[0]).toBe('file 000000.txt')

  // Down to the end of the list as a user scrolling would go: each time the bottom is in view,
  // the list asks for the next page. Done inside the page, one frame at a time.
  const scrolls = await page.evaluate(async () => {
    const grid = document.querySelector('[role="grid"]')!
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
    let count = 0
    for (let frames = 0; frames < 20_000 && grid.getAttribute('aria-rowcount') === '-1'; frames += 1) {
      window.scrollTo(0, document.documentElement.scrollHeight)
      count += 1
      await frame()
    }
    return count
  })
  expect(scrolls).toBeGreaterThan(TOTAL / 200 - 1)
  expect(await grid.getAttribute('aria-rowcount')).toBe(String(TOTAL + 1))
  expect(await page.evaluate(() => (window as unknown as { listPages: number }).listPages)).toBe(TOTAL / 200)
  await page.getByTestId('drive-row').last().click()
  await page.keyboard.press('End')
  await expect.poll(() => page.locator('[data-testid="drive-row"][tabindex="0"]').getAttribute('data-name')).toBe('file 099999.txt')
  expect(await page.getByTestId('drive-row').count()).toBeLessThan(80)

  // The middle of the list: scrolled there, the rows are the right ones.
  await page.evaluate(() => {
    const box = document.querySelectorAll('[role="grid"] [role="rowgroup"]')[1] as HTMLElement
    window.scrollTo(0, box.getBoundingClientRect().top + window.scrollY + 50_000 * 56)
  })
  await expect.poll(async () => (await rowNames(page)).includes('file 050000.txt')).toBe(true)
  expect(await page.getByTestId('drive-row').count()).toBeLessThan(80)
})
