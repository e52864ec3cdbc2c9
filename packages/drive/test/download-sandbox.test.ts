import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { download, uploadFile } from './upload-kit.js'

// Issue 11, "User content never runs in our origin": a downloaded HTML, SVG, XML or XHTML file
// is a document on our origin. Every reply of the content route, whatever the type, disposition,
// range or validator, must sandbox it (opaque origin, no script) and forbid sniffing. This pins
// what the route did already (verified, no bug found) for every way of asking for the content.

let t: DriveTestApp
let token: string
beforeAll(async () => {
  t = await startDriveTestApp()
  token = await t.signUp()
})
afterAll(async () => {
  await t?.close()
})

const MARKUP: Record<string, [string, string]> = {
  'page.html': ['text/html; charset=utf-8', '<!doctype html><script>parent.document.title="owned"</script>'],
  'page.htm': ['text/html; charset=utf-8', '<script>alert(document.domain)</script>'],
  'image.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'],
  'data.xml': ['application/xml', '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'],
  'page.xhtml': ['application/octet-stream', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'],
  'no-extension': ['application/octet-stream', '<html><script>alert(1)</script></html>'],
  'notes.txt': ['text/plain; charset=utf-8', '<html><script>alert(1)</script></html>'],
}

function expectSandboxed(headers: Record<string, unknown>, context: string) {
  const csp = String(headers['content-security-policy'])
  expect(csp, context).toMatch(/(^|;\s*)sandbox(\s*;|$)/)
  expect(csp, context).not.toMatch(/allow-scripts|allow-same-origin/)
  expect(csp, context).toContain("default-src 'none'")
  expect(headers['x-content-type-options'], context).toBe('nosniff')
}

describe('downloads of markup', () => {
  it('sandboxes HTML, SVG, XML and XHTML for every disposition, method, range and validator', async () => {
    const files = await Promise.all(Object.entries(MARKUP).map(async ([name, [, content]]) => [name, await uploadFile(t, token, name, Buffer.from(content))] as const))
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files),
        fc.constantFrom('', 'inline', 'attachment', 'INLINE', 'nonsense'),
        fc.constantFrom('GET', 'HEAD'),
        fc.constantFrom({}, { range: 'bytes=0-3' }, { range: 'bytes=999999-' }, { 'if-none-match': '*' }),
        async ([name, file], disposition, method, headers) => {
          const link = disposition ? `${file.web_content_link}&disposition=${disposition}` : file.web_content_link
          const got = await download(t, { web_content_link: link }, headers as Record<string, string>, method)
          const context = `${method} ${name} ${disposition} ${JSON.stringify(headers)} -> ${got.status}`
          expect([200, 206, 304, 416], context).toContain(got.status)
          expectSandboxed(got.headers, context)
          if (got.status === 200) expect(String(got.headers['content-type']), context).toBe(MARKUP[name]![0])
        },
      ),
      { numRuns: 120 },
    )
  })
})
