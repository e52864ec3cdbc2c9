// The web app is installable (the platform cards offer "install the web app"): every page links
// a manifest whose name, icons (192 and 512 px) and standalone display a browser needs, and
// every icon or manifest the document's head links to is really served.
import { describe, expect } from 'vitest'
import { test } from './playwright-utils'

interface ManifestIcon {
  src: string
  sizes?: string
  type?: string
  purpose?: string
}

describe('the web app manifest', () => {
  test('every page links /manifest.webmanifest', async ({ openPage }) => {
    const { page } = await openPage()
    await page.goto('/about')

    const manifests = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="manifest"]')].map((link) => link.getAttribute('href')))
    expect(manifests).toEqual(['/manifest.webmanifest'])
  })

  test('is JSON with a name, 192 and 512 px icons that exist, and standalone display', async ({ server }) => {
    const response = await fetch(`${server.url}/manifest.webmanifest`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/(manifest\+)?json/)
    const manifest = (await response.json()) as { name?: string; short_name?: string; icons?: ManifestIcon[]; display?: string; start_url?: string }

    expect(manifest.name).toEqual(expect.any(String))
    expect(manifest.name!.length).toBeGreaterThan(0)
    expect(manifest.display).toBe('standalone')
    const sizes = (manifest.icons ?? []).flatMap((icon) => (icon.sizes ?? '').split(/\s+/))
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']))
    for (const icon of manifest.icons ?? []) {
      const image = await fetch(new URL(icon.src, `${server.url}/manifest.webmanifest`))
      expect(image.status, icon.src).toBe(200)
      expect(image.headers.get('content-type'), icon.src).toMatch(/^image\//)
    }
  })

  test('every icon and manifest the head links to is served', async ({ openPage, server }) => {
    const { page } = await openPage()
    await page.goto('/')
    const hrefs = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="manifest"], link[rel~="icon"], link[rel="apple-touch-icon"]')].map((link) => link.getAttribute('href') ?? ''),
    )
    expect(hrefs.length).toBeGreaterThan(0)
    const statuses = await Promise.all(hrefs.map(async (href) => [href, (await fetch(new URL(href, server.url))).status] as const))
    expect(statuses).toEqual(hrefs.map((href) => [href, 200]))
  })
})
