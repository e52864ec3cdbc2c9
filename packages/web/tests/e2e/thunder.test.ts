// The thunder page's downloader in a real browser against the real server: a guest pastes a
// link served by a local origin, previews and adds it, watches its progress and opens the file
// in the drive; a magnet from a local swarm does the same; a private address is refused with the
// catalogue's text in two languages (in the preview when the link names the address or redirects
// there, on the task when a link turns to one after its preview); and on a 375 px phone the form
// and the list fit and work.
import { createServer, type Server } from 'node:http'
import { DOWNLOAD_FOLDER_NAMES, ERROR_MESSAGES, type Locale } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import { formatBytes } from '../../app/drive/format'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import { fill, prefixOf, type Texts, waitForPath } from './account-utils'
import { driveRow, patternBytes, toast } from './drive-utils'
import { e2eTest, PHONE, waitForHydration } from './playwright-utils'
import { startLocalSwarm } from '../../../../test-support/torrent-swarm'

// The origin and the swarm listen on 127.0.0.1, which the SSRF guard refuses unless allowed. No
// DHT or peer exchange: the server's aria2 finds the seeder through the local tracker only.
const test = e2eTest({ env: { OFFLINE_ALLOW_NETWORKS: '127.0.0.1/32', TORRENT_DHT: 'false', TORRENT_PEER_EXCHANGE: 'false' } })

/** Outside OFFLINE_ALLOW_NETWORKS (the cloud metadata service): a link naming it is refused at once. */
const METADATA_LINK = 'http://169.254.169.254/latest/meta-data/'

/** An odd size, so a wrong byte count would show. */
const FILE_BYTES = 1_234_567
/** How much the origin sends before it waits for the test (a bit under half). */
const FIRST_PART_BYTES = 512 * 1024
const TRICKLE_CHUNK_BYTES = 32 * 1024
/** The first part arrives over about 1.6 s, so the server reports progress while bytes come in. */
const TRICKLE_INTERVAL_MS = 100

interface Origin {
  url: string
  /** Lets the held download (`/slow/…`) send the rest of its bytes. */
  release(): void
  close(): Promise<void>
}

/**
 * A web server on 127.0.0.1 standing for the internet:
 * - `/slow/<name>`: `body`; its first FIRST_PART_BYTES trickle in, the rest waits for `release()`;
 * - `/file/<name>`: `body` at once;
 * - `/to-private/<name>`: a redirect to 127.0.0.2, outside the allowed network;
 * - `/turns-private/<name>`: `body` the first time (the preview), then that redirect.
 */
async function startOrigin(body: Uint8Array): Promise<Origin> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const seen = new Set<string>()
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://origin').pathname
    const firstTime = !seen.has(path)
    seen.add(path)
    if (path.startsWith('/to-private/') || (path.startsWith('/turns-private/') && !firstTime)) {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/file/secret.bin` }).end()
      return
    }
    if (!path.startsWith('/slow/') && !path.startsWith('/file/') && !path.startsWith('/turns-private/')) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) })
    if (req.method === 'HEAD') return void res.end()
    if (!path.startsWith('/slow/')) return void res.end(body)
    let sent = 0
    const timer = setInterval(() => {
      const next = Math.min(FIRST_PART_BYTES, sent + TRICKLE_CHUNK_BYTES)
      res.write(body.subarray(sent, next))
      sent = next
      if (sent < FIRST_PART_BYTES) return
      clearInterval(timer)
      void released.then(() => res.end(body.subarray(sent)))
    }, TRICKLE_INTERVAL_MS)
    res.on('close', () => clearInterval(timer))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    release,
    close: () =>
      new Promise((resolve) => {
        release()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Signs in a guest from the login page and lands on the thunder page with its downloader loaded. */
async function guestOnThunder(page: Page, { locale = 'en-US', t = en }: { locale?: string; t?: Texts } = {}): Promise<void> {
  const thunder = `${prefixOf(locale)}/thunder`
  await page.goto(`${prefixOf(locale)}/account/login?redirect=${encodeURIComponent(thunder)}`)
  await waitForHydration(page)
  await page.getByRole('button', { name: t.auth.login.guest, exact: true }).click()
  await waitForPath(page, thunder)
  await page.getByTestId('tasks-empty').waitFor()
}

/** Pastes `links` (one per line), previews them and waits for the preview's entries. */
async function previewLinks(page: Page, links: string[], t: Texts = en): Promise<void> {
  await page.getByLabel(t.drive.offline.form.linksLabel, { exact: true }).fill(links.join('\n'))
  await page.getByRole('button', { name: t.drive.offline.form.preview, exact: true }).click()
  // The server asks each link's origin (or, for a magnet, starts aria2 and fetches the metadata from peers).
  await expect.poll(() => page.getByTestId('preview-item').count(), { timeout: 20_000 }).toBe(links.length)
}

/** The "Add N downloads" button of the preview. */
function addButton(page: Page, count: number, t: Texts = en) {
  return page.getByTestId('preview').getByRole('button', { name: fill(count === 1 ? t.drive.offline.add.one : t.drive.offline.add.other, { count }), exact: true })
}

/** The task list's row of a download, by its name. */
function taskRow(page: Page, name: string) {
  return page.getByTestId('task-row').filter({ has: page.getByText(name, { exact: true }) })
}

describe('the thunder page', () => {
  test('a link is previewed, added, downloads with progress shown and opens in the drive', async ({ openPage, server }) => {
    const body = patternBytes(FILE_BYTES)
    const origin = await startOrigin(body)
    try {
      const { page } = await openPage()
      await guestOnThunder(page)
      // The page counts today's downloads against the plan's limit.
      await expect.poll(() => page.getByTestId('offline-counts').textContent()).toMatch(/^Today: 0 of \d+ downloads/)

      await previewLinks(page, [`${origin.url}/slow/holiday.bin`])
      const item = page.getByTestId('preview-item')
      expect(await item.getAttribute('data-name')).toBe('holiday.bin')
      // The server read the origin's headers: the name and the size it announces.
      await item.getByText(en.drive.offline.preview.ready, { exact: true }).waitFor()
      await item.getByText(formatBytes(FILE_BYTES, 'en-US'), { exact: true }).waitFor()
      expect(await page.getByTestId('target-folder').getByTestId('file-name').getAttribute('title')).toBe(DOWNLOAD_FOLDER_NAMES['en-US'])
      await addButton(page, 1).click()
      await toast(page, fill(en.drive.offline.added.one, { count: 1 }))
      // Regression: toasts were rendered inside the hero section (its own stacking context), so
      // the step cards below it covered them. With the steps under the toast, it is on top.
      const added = page.getByTestId('toast').first()
      await page.locator('section[aria-labelledby="thunder-steps"] li').first().evaluate((card) => card.scrollIntoView({ block: 'end' }))
      expect(await added.evaluate((node) => {
        const box = node.getBoundingClientRect()
        return node.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2))
      })).toBe(true)

      // While the origin holds the rest back, the row shows a download part done.
      const row = taskRow(page, 'holiday.bin')
      const bar = row.getByRole('progressbar', { name: fill(en.drive.offline.tasks.progress, { name: 'holiday.bin' }) })
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow').catch(() => null)), { timeout: 15_000 }).toBeGreaterThan(0)
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100)
      expect(await row.getByTestId('task-phase').textContent()).toBe(en.drive.offline.tasks.phase.PHASE_TYPE_RUNNING)
      // "512 KiB of 1.2 MiB": the part received of the total the origin announced.
      expect(await row.getByTestId('task-size').textContent()).toMatch(new RegExp(`^.+ of ${formatBytes(FILE_BYTES, 'en-US')}$`))
      expect(await row.getByRole('button', { name: en.drive.offline.tasks.cancel, exact: true }).isVisible()).toBe(true)

      origin.release()
      await expect.poll(() => row.getAttribute('data-phase'), { timeout: 15_000 }).toBe('PHASE_TYPE_COMPLETE')
      expect(await row.getByTestId('task-phase').textContent()).toBe(en.drive.offline.tasks.phase.PHASE_TYPE_COMPLETE)
      expect(await row.getByTestId('task-size').textContent()).toBe(formatBytes(FILE_BYTES, 'en-US'))
      await expect.poll(() => page.getByTestId('tasks-announcer').textContent()).toBe(fill(en.drive.offline.tasks.announce.done, { name: 'holiday.bin' }))

      // "Open in drive" goes to the download folder, which holds the file with every byte.
      await row.getByRole('link', { name: en.drive.offline.tasks.open }).click()
      await page.getByRole('heading', { level: 1, name: DOWNLOAD_FOLDER_NAMES['en-US'] }).waitFor()
      expect(new URL(page.url()).pathname).toMatch(/^\/drive\/[^/]+$/)
      const fileRow = driveRow(page, 'holiday.bin')
      await fileRow.getByText(formatBytes(FILE_BYTES, 'en-US'), { exact: true }).waitFor()
      const stored = await server.server.drive.db.selectFrom('drive_files').select(['size', 'phase']).where('id', '=', (await fileRow.getAttribute('data-id'))!).executeTakeFirstOrThrow()
      expect(stored).toEqual({ size: FILE_BYTES, phase: 'PHASE_TYPE_COMPLETE' })
    } finally {
      await origin.close()
    }
  })

  test('a magnet served by a local swarm is added the same way and lands in the drive', async ({ openPage, server }) => {
    const swarm = await startLocalSwarm()
    try {
      const bytes = patternBytes(200 * 1024, 11)
      const torrent = await swarm.makeTorrent('swarm-song.flac', [{ path: ['swarm-song.flac'], bytes }], { single: true })
      await swarm.seed(torrent)
      const { page } = await openPage()
      await guestOnThunder(page)
      await previewLinks(page, [torrent.magnet])
      // The server fetched the torrent's metadata from the swarm: its name and size.
      const item = page.getByTestId('preview-item')
      expect(await item.getAttribute('data-name')).toBe('swarm-song.flac')
      await item.getByText(formatBytes(bytes.length, 'en-US'), { exact: true }).waitFor()
      await addButton(page, 1).click()
      const row = taskRow(page, 'swarm-song.flac')
      await expect.poll(() => row.getAttribute('data-phase'), { timeout: 30_000 }).toBe('PHASE_TYPE_COMPLETE')
      await row.getByRole('link', { name: en.drive.offline.tasks.open }).click()
      await page.getByRole('heading', { level: 1, name: DOWNLOAD_FOLDER_NAMES['en-US'] }).waitFor()
      const fileRow = driveRow(page, 'swarm-song.flac')
      await fileRow.waitFor()
      const stored = await server.server.drive.db.selectFrom('drive_files').select('size').where('id', '=', (await fileRow.getAttribute('data-id'))!).executeTakeFirstOrThrow()
      expect(stored.size).toBe(bytes.length)
    } finally {
      await swarm.close()
    }
  })

  test('a .torrent file chosen on the page is uploaded, previewed as a tree, and only the picked files land in a folder named after it', async ({ openPage, server }) => {
    const swarm = await startLocalSwarm()
    try {
      const song = patternBytes(150 * 1024, 21)
      const cover = patternBytes(20 * 1024, 22)
      const torrent = await swarm.makeTorrent('Album', [
        { path: ['song.flac'], bytes: song },
        { path: ['cover.jpg'], bytes: cover },
      ])
      await swarm.seed(torrent)
      const { page } = await openPage()
      await guestOnThunder(page)
      await page.getByTestId('torrent-input').setInputFiles({ name: 'Album.torrent', mimeType: 'application/x-bittorrent', buffer: Buffer.from(torrent.torrentFile) })
      await page.getByTestId('torrent-chosen').waitFor()
      await page.getByRole('button', { name: en.drive.offline.form.preview, exact: true }).click()
      // The .torrent went into the drive and the server read its tree: pick the song only.
      const item = page.getByTestId('preview-item')
      await item.waitFor({ timeout: 20_000 })
      expect(await item.getAttribute('data-name')).toBe('Album')
      await item.locator('label', { hasText: 'cover.jpg' }).locator('input[type=checkbox]').uncheck()
      await addButton(page, 1).click()
      const row = taskRow(page, 'Album')
      await expect.poll(() => row.getAttribute('data-phase'), { timeout: 30_000 }).toBe('PHASE_TYPE_COMPLETE')
      expect(await row.getByTestId('task-size').textContent()).toBe(formatBytes(song.length, 'en-US'))
      const { db } = server.server.drive
      const folder = await db.selectFrom('drive_files').select('id').where('name', '=', 'Album').where('kind', '=', 'drive#folder').executeTakeFirstOrThrow()
      const inside = await db.selectFrom('drive_files').select(['name', 'size']).where('parent_id', '=', folder.id).execute()
      expect(inside).toEqual([{ name: 'song.flac', size: song.length }])
    } finally {
      await swarm.close()
    }
  })

  for (const [locale, t, browserLocale] of [
    ['en-US', en, 'en-US'],
    ['ko', ko, 'ko-KR'],
  ] as const) {
    test(`a private address is refused with the catalogue's text (${locale})`, async ({ openPage }) => {
      const origin = await startOrigin(patternBytes(1024))
      try {
        const { page } = await openPage({ locale: browserLocale })
          await guestOnThunder(page, { locale, t })
        const refused = ERROR_MESSAGES[locale as Locale].offline_url_refused
        // The preview refuses a link that names the address and one that redirects there; a link
        // fine when previewed that redirects there later is refused by the run.
        const turning = `${origin.url}/turns-private/report.pdf`
        await previewLinks(page, [METADATA_LINK, `${origin.url}/to-private/notes.txt`, turning], t)
        const refusals = page.getByTestId('preview-item').filter({ has: page.getByTestId('preview-refusal') })
        expect(await refusals.getByTestId('preview-refusal').allTextContents()).toEqual([refused, refused])
        expect(await refusals.getByRole('checkbox').count()).toBe(0)
        await page.getByTestId('preview-item').filter({ hasText: 'report.pdf' }).getByText(t.drive.offline.preview.ready, { exact: true }).waitFor()
        await addButton(page, 1, t).click()
        await toast(page, fill(t.drive.offline.added.one, { count: 1 }))
        const row = taskRow(page, 'report.pdf')
        await expect.poll(() => row.getAttribute('data-phase'), { timeout: 15_000 }).toBe('PHASE_TYPE_ERROR')
        expect(await row.getByTestId('task-error').textContent()).toBe(refused)
        expect(await row.getByTestId('task-phase').textContent()).toBe(t.drive.offline.tasks.phase.PHASE_TYPE_ERROR)
        await row.getByRole('button', { name: t.drive.offline.tasks.retry, exact: true }).waitFor()
      } finally {
        await origin.close()
      }
    })
  }

  test('on a 375 px phone the form and the list fit the screen and Add works', async ({ openPage }) => {
    const origin = await startOrigin(patternBytes(FILE_BYTES))
    try {
      const { page } = await openPage(PHONE)
      await guestOnThunder(page)
      // How far anything sticks out to the right: the page's own scroll, and the downloader's
      // parts, which the hero section (overflow hidden) would clip rather than scroll.
      const pageOverflow = () =>
        page.evaluate(() => {
          const parts = document.querySelectorAll('[data-testid="add-download"], [data-testid="offline-tasks"]')
          const rightmost = Math.max(0, ...[...parts].map((part) => part.getBoundingClientRect().right))
          return Math.max(document.documentElement.scrollWidth, rightmost) - document.documentElement.clientWidth
        })
      expect(await pageOverflow()).toBe(0)

      // Regression: a name too long for one line made the downloader's one column as wide as the
      // name, so the preview and the Add button ran off the screen (clipped, out of reach).
      const longName = `${'very-long-file-name-'.repeat(6)}.bin`
      await previewLinks(page, [`${origin.url}/file/${longName}`])
      expect(await pageOverflow()).toBe(0)
      const add = addButton(page, 1)
      await add.scrollIntoViewIfNeeded()
      const box = (await add.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(375)
      // A tap reaches the button (Playwright checks nothing covers it).
      await add.tap()
      const row = taskRow(page, longName)
      await expect.poll(() => row.getAttribute('data-phase'), { timeout: 15_000 }).toBe('PHASE_TYPE_COMPLETE')
      expect(await pageOverflow()).toBe(0)
      const open = row.getByRole('link', { name: en.drive.offline.tasks.open })
      await open.scrollIntoViewIfNeeded()
      const openBox = (await open.boundingBox())!
      expect(openBox.x + openBox.width).toBeLessThanOrEqual(375)
      const rowBox = (await row.boundingBox())!
      expect(rowBox.x).toBeGreaterThanOrEqual(0)
      expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(375)
      await open.tap()
      await driveRow(page, longName).waitFor()
    } finally {
      await origin.close()
    }
  })
})
