// The drive's video player in a real browser against the real server, transcoder included
// (issue 13 §3): a member uploads a short H.264 video made with ffmpeg, opens it and sees it play
// (the Original from its signed link, or Auto once transcoded), waits for the HD versions (the
// server transcodes on upload; TRANSCODE_PRESET=ultrafast keeps it quick), switches to 480P from the quality menu
// (hls.js then plays the 480-line rendition, without stopping) and back to Auto; pausing saves
// the position. A non-member sees the same renditions locked, leading to membership, and the
// Original still plays; a paused video reopens where it was; a subtitle file beside a video shows its cues; past the free plan's daily plays (one, here) a video says so and links
// to membership instead of showing a broken video. On a 375 px phone the controls stay inside
// the screen, light and dark.
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Locator, Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import { fill, grantMembership, seedUser, signInWithPassword } from './account-utils'
import { driveRow } from './drive-utils'
import { e2eTest, expectNoA11yViolations, PHONE } from './playwright-utils'

const test = e2eTest({ env: { TRANSCODE_PRESET: 'ultrafast', PLANS: JSON.stringify({ free: { plays_per_day: 1 } }) } })
const player = en.drive.player
/** Upload, probe and an ultrafast transcode of four seconds of 720p take a few seconds; a loaded machine needs more. */
const TRANSCODE_TIMEOUT_MS = 120_000

/** Seconds of 1280×720 H.264 and AAC (ffmpeg's test pattern and a sine tone). */
async function makeClip(seconds: number): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'cumulus-player-e2e-'))
  const path = join(dir, 'clip.mp4')
  try {
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', path])
    return await readFile(path)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Made once: every account uploads the same content, which the server transcodes once (renditions belong to the content). */
let clip: Promise<Buffer> | undefined
const fourSeconds = () => (clip ??= makeClip(4))

/** Signs `user` in and uploads `files` (name -> content) to the root of their drive, waiting for them to be listed. */
async function upload(page: Page, user: { email: string; password: string; name: string }, files: Record<string, Uint8Array>): Promise<void> {
  await signInWithPassword(page, user)
  await page.goto('/drive')
  await page.getByTestId('drive-empty').waitFor()
  const names = Object.keys(files)
  await page.getByTestId('upload-files-input').setInputFiles(names.map((name) => ({ name, mimeType: name.endsWith('.mp4') ? 'video/mp4' : 'application/x-subrip', buffer: Buffer.from(files[name]!) })))
  const finished = names.length === 1 ? fill(en.drive.upload.finished.one, { count: 1 }) : fill(en.drive.upload.finished.other, { count: names.length })
  await expect.poll(() => page.getByTestId('upload-title').textContent(), { timeout: 30_000 }).toBe(finished)
  for (const name of names) await driveRow(page, name).waitFor()
}

async function openPreview(page: Page, name: string, { touch = false }: { touch?: boolean } = {}): Promise<Locator> {
  // Touch has no double click: a tap opens.
  if (touch) await driveRow(page, name).tap()
  else await driveRow(page, name).dblclick()
  const dialog = page.getByTestId('preview-dialog')
  await dialog.getByRole('heading', { name }).waitFor()
  return dialog
}

/** The names in the open quality menu: its radio items (playable) and locked items (members only). */
async function qualityMenu(page: Page, dialog: Locator): Promise<{ playable: string[]; locked: string[] }> {
  await openQuality(dialog)
  const menu = page.getByRole('menu')
  await menu.waitFor()
  // "Auto (720P)" names the height hls.js plays: the menu's entry is Auto.
  const playable = (await menu.getByRole('menuitemradio').allTextContents()).map((text) => text.replace('✓', '').replace(/ \(\d+P\)$/, '').trim())
  const locked = await menu.getByTestId('quality-locked').allTextContents()
  return { playable, locked }
}

/**
 * Opens the video until its quality menu lists the renditions (`expected`): the player reads the
 * video again while its transcode runs and offers them when ready; should the preview have
 * opened before the transcode was queued, it is opened again.
 */
async function waitForRenditions(page: Page, name: string, expected: (menu: { playable: string[]; locked: string[] }) => boolean): Promise<Locator> {
  const deadline = Date.now() + TRANSCODE_TIMEOUT_MS
  for (;;) {
    const dialog = await openPreview(page, name)
    await dialog.getByTestId('player-quality').waitFor()
    const notice = dialog.getByTestId('player-transcode')
    // While it is being made the player follows it by itself: wait for it there.
    if (await notice.isVisible()) await notice.waitFor({ state: 'detached', timeout: Math.max(1000, deadline - Date.now()) })
    const menu = await qualityMenu(page, dialog)
    await page.keyboard.press('Escape')
    await page.getByRole('menu').waitFor({ state: 'detached' })
    if (expected(menu)) return dialog
    if (Date.now() > deadline) throw new Error(`the renditions did not appear: ${JSON.stringify(menu)}`)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await page.waitForTimeout(2000)
  }
}

const currentTime = (video: Locator) => video.evaluate((element) => (element as HTMLVideoElement).currentTime)

/** The controls hide while the video plays and the pointer rests: the pointer moves over the picture first, as a viewer's would. */
async function openQuality(dialog: Locator): Promise<void> {
  await dialog.getByTestId('preview-video').hover()
  await dialog.getByTestId('player-quality').click()
}

describe('the video player', () => {
  test('a member\'s video plays at once; once transcoded it switches to 480P and back to Auto without stopping', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'player-member', name: 'Mia Member' })
    await grantMembership(server, user.email, { days: 30, year: false })
    const { page } = await openPage()
    await upload(page, user, { 'clip.mp4': await fourSeconds() })

    // It plays at once: from the Original's signed link while the HD versions are being made (or
    // on Auto, should they be ready already).
    let dialog = await openPreview(page, 'clip.mp4')
    const video = dialog.getByTestId('preview-video')
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(0.3)
    expect(await video.getAttribute('src')).toMatch(/\/drive\/v1\/|^blob:/)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    // A 720p source gets 720P and 480P (nothing taller than itself), all playable by a member.
    dialog = await waitForRenditions(page, 'clip.mp4', (menu) => menu.playable.includes('480P'))
    const menu = await qualityMenu(page, dialog)
    expect(menu).toEqual({ playable: [player.quality.auto, '720P', '480P', player.quality.original], locked: [] })

    const playlists: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('.m3u8')) playlists.push(request.url())
    })
    // The clip is 4 s long: from its start again, so it is still playing when the quality changes.
    await page.keyboard.press('Escape')
    await page.getByRole('menu').waitFor({ state: 'detached' })
    await video.evaluate((element) => {
      const media = element as HTMLVideoElement
      media.currentTime = 0
      void media.play()
    })
    await openQuality(dialog)
    await page.getByRole('menuitemradio', { name: '480P', exact: true }).click()
    // hls.js plays the 480-line rendition, and the video goes on.
    await expect.poll(() => video.evaluate((element) => (element as HTMLVideoElement).videoHeight), { timeout: 30_000 }).toBe(480)
    expect(playlists.length).toBeGreaterThan(0)
    expect(await dialog.getByTestId('player-quality').getAttribute('aria-label')).toBe(fill(player.quality.button, { quality: '480P' }))
    const before = await currentTime(video)
    await video.evaluate((element) => void (element as HTMLVideoElement).play())
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).not.toBe(before)

    // Auto lets hls.js choose; the menu says which height it is playing.
    await openQuality(dialog)
    await page.getByRole('menuitemradio', { name: new RegExp(`^${player.quality.auto}`) }).click()
    await expect.poll(() => dialog.getByTestId('player-quality').getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/^Quality: Auto( \((480|720)P\))?$/)

    // A jump (5: to 50%) saves where the member is (PUT …/playback); K pauses.
    const saved = page.waitForRequest((request) => request.method() === 'PUT' && /\/drive\/v1\/files\/[^/]+\/playback$/.test(request.url()) && (request.postDataJSON() as { position_seconds: number }).position_seconds >= 1.5)
    await dialog.getByTestId('video-player').focus()
    await page.keyboard.press('5')
    const body = (await saved).postDataJSON() as { position_seconds: number; duration_seconds?: number }
    expect(body.position_seconds).toBeLessThanOrEqual(4.1)
    expect(body.duration_seconds).toBeCloseTo(4, 0)
    await page.keyboard.press('k')
    await expect.poll(() => video.evaluate((element) => (element as HTMLVideoElement).paused)).toBe(true)
  })

  test('a non-member sees the HD versions locked, leading to membership, and the Original plays', async ({ openPage, server }) => {
    // A member's copy of the same content has it transcoded (a non-member's upload is not).
    const member = await seedUser(server, { label: 'player-member-2', name: 'Max Member' })
    await grantMembership(server, member.email, { days: 30, year: false })
    const memberPage = (await openPage()).page
    await upload(memberPage, member, { 'same.mp4': await fourSeconds() })
    await waitForRenditions(memberPage, 'same.mp4', (menu) => menu.playable.includes('480P'))

    const user = await seedUser(server, { label: 'player-free', name: 'Finn Free' })
    const { page } = await openPage()
    await upload(page, user, { 'free.mp4': await fourSeconds() })

    const dialog = await waitForRenditions(page, 'free.mp4', (menu) => menu.locked.length > 0)
    const video = dialog.getByTestId('preview-video')
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(0.3)
    const menu = await qualityMenu(page, dialog)
    expect(menu).toEqual({ playable: [player.quality.original], locked: [`720P ${player.quality.membersOnly}`, `480P ${player.quality.membersOnly}`] })
    const locked = page.getByRole('menuitem', { name: `720P ${player.quality.membersOnly}` })
    expect(await locked.getAttribute('href')).toBe('/account/home#membership')
    await locked.click()
    await page.waitForURL((url) => url.pathname === '/account/home' && url.hash === '#membership')
    await page.getByTestId('membership-section').waitFor()
  })

  test('past the free plan\'s daily plays a video says so and links to membership', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'player-limit', name: 'Lou Limit' })
    const { page } = await openPage()
    await upload(page, user, { 'first.mp4': await fourSeconds(), 'second.mp4': await makeClip(3) })
    // The first video of the day plays (again and again: one play per video a day).
    for (let round = 0; round < 2; round += 1) {
      const dialog = await openPreview(page, 'first.mp4')
      await expect.poll(() => currentTime(dialog.getByTestId('preview-video')), { timeout: 15_000 }).toBeGreaterThan(0.3)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
    }
    // The second is one too many for the free plan here.
    const dialog = await openPreview(page, 'second.mp4')
    const limit = dialog.getByTestId('player-limit')
    await limit.getByRole('heading', { name: player.limit.title }).waitFor()
    expect(await dialog.getByTestId('preview-video').count()).toBe(0)
    await limit.getByRole('link', { name: player.limit.upgrade }).click()
    await page.waitForURL((url) => url.pathname === '/account/home' && url.hash === '#membership')
    await page.getByTestId('membership-section').waitFor()
  })

  test('reopened, a video resumes where it was paused, and Start over goes back to the beginning', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'player-resume', name: 'Rey Resume' })
    const { page } = await openPage()
    await upload(page, user, { 'long.mp4': await makeClip(20) })
    let dialog = await openPreview(page, 'long.mp4')
    let video = dialog.getByTestId('preview-video')
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(0.3)
    // Jump to 40% (8 s) with the keyboard, then pause: the position is saved.
    await dialog.getByTestId('video-player').focus()
    await page.keyboard.press('4')
    const saved = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith('/playback') && (request.postDataJSON() as { position_seconds: number }).position_seconds >= 8)
    await page.keyboard.press('k')
    const position = ((await saved).postDataJSON() as { position_seconds: number }).position_seconds
    expect(position).toBeLessThan(10)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })

    dialog = await openPreview(page, 'long.mp4')
    video = dialog.getByTestId('preview-video')
    const resumed = dialog.getByTestId('player-resumed')
    await resumed.getByText(fill(player.resumed, { time: '0:08' })).waitFor()
    expect(await currentTime(video)).toBeGreaterThanOrEqual(8)
    await resumed.getByRole('button', { name: player.startOver }).click()
    await expect.poll(() => currentTime(video)).toBeLessThan(2)
  })

  test('a subtitle file beside the video is offered, and shows its cues when chosen', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'player-subs', name: 'Sol Subtitles' })
    const { page } = await openPage()
    const srt = '1\n00:00:00,000 --> 00:00:03,500\nHello from the drive\n'
    await upload(page, user, { 'talk.mp4': await fourSeconds(), 'talk.en.srt': new TextEncoder().encode(srt) })
    const dialog = await openPreview(page, 'talk.mp4')
    const trigger = dialog.getByTestId('player-subtitles')
    await trigger.waitFor()
    expect(await trigger.getAttribute('aria-label')).toBe(fill(player.subtitles.button, { track: player.subtitles.off }))
    await dialog.getByTestId('preview-video').hover()
    await trigger.click()
    const items = (await page.getByRole('menu').getByRole('menuitemradio').allTextContents()).map((text) => text.replace('✓', '').trim())
    expect(items).toEqual([player.subtitles.off, 'talk.en.srt'])
    await page.getByRole('menuitemradio', { name: 'talk.en.srt' }).click()
    const video = dialog.getByTestId('preview-video')
    // The signed WebVTT loads through the <track> (no bearer) and its cue is there to show.
    await expect
      .poll(() => video.evaluate((element) => [...(element as HTMLVideoElement).textTracks].map((track) => [track.mode, track.cues?.[0] ? (track.cues[0] as VTTCue).text : null])), { timeout: 15_000 })
      .toEqual([['showing', 'Hello from the drive']])
    expect(await trigger.getAttribute('aria-label')).toBe(fill(player.subtitles.button, { track: 'talk.en.srt' }))
  })

  test('on a 375 px phone the controls fit the screen and pass axe-core, light and dark', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'player-phone', name: 'Pia Phone' })
    const { page } = await openPage({ ...PHONE })
    await upload(page, user, { 'phone.mp4': await fourSeconds(), 'zz-notes.txt': Buffer.from('after the video') })
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const dialog = await openPreview(page, 'phone.mp4', { touch: true })
      const controls = dialog.getByTestId('player-controls')
      await controls.waitFor()
      // The step to the next file sits under the video, not over it or its controls.
      const next = await dialog.getByRole('button', { name: en.drive.preview.next }).boundingBox()
      const video = await dialog.getByTestId('video-player').boundingBox()
      expect(next && video && next.y >= video.y + video.height).toBe(true)
      const boxes = await controls.locator('button, input').evaluateAll((elements) =>
        elements.filter((element) => (element as HTMLElement).offsetParent !== null).map((element) => element.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, width: r.width })),
      )
      expect(boxes.length).toBeGreaterThanOrEqual(5)
      for (const box of boxes) {
        expect(box.left).toBeGreaterThanOrEqual(0)
        expect(box.right).toBeLessThanOrEqual(375)
      }
      // The controls stay up while the video is paused (axe reads what is shown).
      await dialog.getByTestId('video-player').focus()
      await dialog.getByTestId('preview-video').evaluate((element) => (element as HTMLVideoElement).pause())
      await expectNoA11yViolations(page)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
    }
  })
})
