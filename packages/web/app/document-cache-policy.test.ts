// @vitest-environment node
import { describe, expect, it } from 'vitest'
// Imported from its own module: entry.server starts loading every locale's messages when it is
// imported, which would outlive this file's tests.
import { documentCachePolicy } from './document-cache-policy'

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers })

describe('documentCachePolicy', () => {
  it('caches a page by its URL and the visitor’s platform', () => {
    expect(documentCachePolicy(get('/about?x=1', { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' }))).toEqual({ key: 'http://localhost/about?x=1|windows', setCookies: [] })
  })

  // Their URLs carry one visitor's provider code, OAuth state and PKCE challenge, or user code.
  it.each(['/auth/callback?code=c-1&state=s-1', '/ko/auth/callback', '/authorize?client_id=tv&state=s', '/zh-TW/authorize?client_id=tv', '/device?user_code=WDJB-MJHT', '/ms/device'])('never caches %s', (path) => {
    expect(documentCachePolicy(get(path, { 'accept-language': 'en' }))).toBeNull()
  })

  // A share's title must go when the share is cancelled, and `?pwd=` carries its pass code.
  it.each(['/s/sh-1', '/s/sh-1?pwd=abcd', '/zh-CN/s/sh-1', '/ko/s/sh-1?pwd=abcd'])('never caches the share page %s', (path) => {
    expect(documentCachePolicy(get(path, { 'accept-language': 'en' }))).toBeNull()
  })
})
