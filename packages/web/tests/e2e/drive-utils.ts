/**
 * Helpers of the drive tests (drive.test.ts, drive-resume.test.ts): local files and folders to
 * upload, a video made by the browser itself, upload throttling through the DevTools protocol,
 * and finding rows of the file list by name.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import en from '../../app/locales/en-US/index'
import { fill } from './account-utils'

/** A fresh temporary folder holding `files` (relative path -> content). Returns its path. */
export async function localTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cumulus-drive-e2e-'))
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
  return root
}

/** `size` bytes that differ from position to position (a corrupted resume would show). */
export function patternBytes(size: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(size)
  let x = seed
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0
    bytes[i] = x >>> 24
  }
  return bytes
}

/**
 * A short WebM video recorded by Chromium itself (a canvas animation through MediaRecorder),
 * so the test needs no binary fixture and the video is one this browser can play.
 */
export async function recordWebm(page: Page): Promise<Uint8Array> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 160
    canvas.height = 90
    const context = canvas.getContext('2d')!
    const stream = canvas.captureStream(25)
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8' })
    const chunks: Blob[] = []
    recorder.ondataavailable = (event) => chunks.push(event.data)
    const stopped = new Promise((resolve) => (recorder.onstop = resolve))
    recorder.start(100)
    // Twelve frames of a moving square; the recording ends after them.
    for (let frame = 0; frame < 12; frame += 1) {
      context.fillStyle = '#1e3a8a'
      context.fillRect(0, 0, 160, 90)
      context.fillStyle = '#facc15'
      context.fillRect(frame * 10, 30, 30, 30)
      await new Promise((resolve) => setTimeout(resolve, 40))
    }
    recorder.stop()
    await stopped
    const buffer = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer())
    let binary = ''
    for (const byte of buffer) binary += String.fromCharCode(byte)
    return btoa(binary)
  })
  return Uint8Array.from(Buffer.from(base64, 'base64'))
}

/**
 * Limits the page's upload bandwidth (DevTools network emulation), so upload progress can be
 * watched and an upload can be interrupted part-way. One DevTools session per page: it keeps
 * its setting across reloads, and `set(null)` lifts the limit.
 */
export async function uploadThrottle(context: BrowserContext, page: Page): Promise<{ set(bytesPerSecond: number | null): Promise<void> }> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  return {
    set: async (bytesPerSecond) => {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond ?? -1 })
    },
  }
}

/** The list row of an item, by its name. */
export function driveRow(page: Page, name: string) {
  return page.locator(`[data-testid="drive-row"][data-name="${name.replace(/"/g, '\\"')}"]`)
}

/** The names in the list, top to bottom (the rows in the DOM: the whole list when it is short). */
export async function rowNames(page: Page): Promise<string[]> {
  return page.getByTestId('drive-row').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.name ?? ''))
}

/** Chooses an action from an item's row menu. */
export async function rowAction(page: Page, name: string, action: string): Promise<void> {
  await driveRow(page, name).getByRole('button', { name: fill(en.drive.actions.menuFor, { name }) }).click()
  await page.getByRole('menuitem', { name: action, exact: true }).click()
}

/** Waits for a toast with exactly this text. */
export async function toast(page: Page, text: string): Promise<void> {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor()
}
