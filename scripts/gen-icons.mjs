#!/usr/bin/env node
// Draws the web app's icons from the Cumulus mark (packages/web/app/components/logo.tsx) and
// writes them to packages/web/public: favicon.svg, the manifest's PNGs (192, 512 and a maskable
// 512) and the Apple touch icon (180). The PNGs are committed; run this again after changing
// the mark. Needs Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH) and playwright-core.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = fileURLToPath(new URL('..', import.meta.url))
const publicDir = join(root, 'packages/web/public')

const GRADIENT = `<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4f8cff"/><stop offset="1" stop-color="#2447c7"/></linearGradient>`
/** The cloud and arrow of the mark, in the mark's 64-unit box. */
const MARK = `<path d="M20 40a8 8 0 0 1 .9-15.95A11 11 0 0 1 42 22.5a9 9 0 0 1 2 17.5z" fill="#fff" fill-opacity=".95"/><path d="M32 29v14m-5-5 5 5 5-5" stroke="#2447c7" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`

/** The mark as logo.tsx draws it: a rounded square, transparent corners. */
const roundedIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs>${GRADIENT}</defs><rect width="64" height="64" rx="16" fill="url(#g)"/>${MARK}</svg>`

/**
 * A full-bleed square with the mark scaled down around the centre. Maskable icons keep their
 * content inside the centre circle of 80% diameter (the platform crops the rest); Apple draws
 * its own rounded corners and fills transparency with black, so its icon is full-bleed too.
 */
function fullBleedIcon(markScale) {
  const offset = 32 - 32 * markScale
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs>${GRADIENT}</defs><rect width="64" height="64" fill="url(#g)"/><g transform="translate(${offset} ${offset}) scale(${markScale})">${MARK}</g></svg>`
}

const PNGS = [
  { file: 'icons/icon-192.png', size: 192, svg: roundedIcon },
  { file: 'icons/icon-512.png', size: 512, svg: roundedIcon },
  // At 1.1 the cloud's farthest corner is about 181 px from the centre of 512: inside the 205 px safe circle.
  { file: 'icons/icon-maskable-512.png', size: 512, svg: fullBleedIcon(1.1) },
  { file: 'icons/apple-touch-icon.png', size: 180, svg: fullBleedIcon(1.4) },
]

mkdirSync(join(publicDir, 'icons'), { recursive: true })
writeFileSync(join(publicDir, 'favicon.svg'), `${roundedIcon}\n`)

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
})
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 })
  for (const { file, size, svg } of PNGS) {
    await page.setViewportSize({ width: size, height: size })
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `)
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`)
    await page.screenshot({ path: join(publicDir, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } })
    console.log(`wrote packages/web/public/${file} (${size}x${size})`)
  }
} finally {
  await browser.close()
}
