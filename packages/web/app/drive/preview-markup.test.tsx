import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { aFile, FakeDriveApi } from './fake-drive-api'
import { PreviewDialog } from './preview-dialog'

// Issue 11, "User content never runs in our origin": a preview of an uploaded HTML, SVG, XML or
// XHTML file must not put its markup into our page. Verified (no bug found): markup is shown as
// text, an SVG only through <img> (where it cannot run script), XHTML not at all; no file but a
// PDF gets a frame, and the PDF's own response is sandboxed by the server's CSP.

const MARKUP = '<img src=x onerror="window.__owned=1"><script>window.__owned=2</script><iframe src="/"></iframe>'

describe('previews of markup', () => {
  afterEach(() => vi.unstubAllGlobals())

  it.each([
    ['page.html', 'text/html', 'TEXT'],
    ['page.htm', 'text/html', 'OTHER'],
    ['data.xml', 'application/xml', 'OTHER'],
    ['image.svg', 'image/svg+xml', 'IMAGE'],
    ['page.xhtml', 'application/xhtml+xml', 'OTHER'],
    ['evil.txt', 'text/plain', 'TEXT'],
  ])('%s never becomes markup of the page', async (name, mime, category) => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(MARKUP, { status: 206 })))
    const file = aFile({ name, mime_type: mime, file_category: category as 'TEXT' })
    renderPage(<PreviewDialog api={new FakeDriveApi([file])} files={[file]} index={0} onIndexChange={() => {}} onClose={() => {}} onDownload={() => {}} />)
    const dialog = await screen.findByTestId('preview-dialog')
    await waitFor(() => expect(dialog.querySelector('[role="status"]')).toBeNull())
    expect(dialog.querySelector('script, iframe, object, embed')).toBeNull()
    expect(dialog.querySelector('img[src="x"]')).toBeNull()
    expect((window as { __owned?: number }).__owned).toBeUndefined()
    const text = dialog.querySelector('[data-testid="preview-text"]')
    if (text) expect(text.textContent).toBe(MARKUP)
    const image = dialog.querySelector<HTMLImageElement>('[data-testid="preview-image"]')
    if (image) expect(image.src).toMatch(/^http:\/\/127\.0\.0\.1\/drive\/v1\/content\/.*disposition=inline/)
    expect(text !== null || image !== null || dialog.querySelector('[data-testid="preview-none"]') !== null).toBe(true)
  })
})
