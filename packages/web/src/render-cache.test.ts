import { describe, expect, it } from 'vitest'
import { type CachedPage, isCacheableResponse, pageWithNonce, RenderCache, splitAtNonce } from './render-cache.js'

const page = (text: string, status = 200) => ({ status, headers: [['content-type', 'text/html; charset=utf-8']] as [string, string][], parts: [Buffer.from(text)] })
const text = (stored: CachedPage | undefined) => (stored ? pageWithNonce(stored, '').toString() : undefined)

describe('RenderCache', () => {
  it('keeps a page until its time is up, not a millisecond longer', () => {
    const clock = { now: 0 }
    const cache = new RenderCache({ ttlMs: 1_000, maxEntries: 10, maxBytes: 1_000, now: () => clock.now })
    cache.set('/about|web', page('about'))
    clock.now = 999
    expect(text(cache.get('/about|web'))).toBe('about')
    clock.now = 1_000
    expect(cache.get('/about|web')).toBeUndefined()
    expect(cache.bytes).toBe(0)
  })

  it('evicts the least recently used page past the entry or byte budget', () => {
    const cache = new RenderCache({ ttlMs: 60_000, maxEntries: 2, maxBytes: 10 })
    cache.set('a', page('aaaa'))
    cache.set('b', page('bbbb'))
    cache.get('a') // a is now the most recent
    cache.set('c', page('cccc'))
    expect([cache.get('a') !== undefined, cache.get('b') !== undefined, cache.get('c') !== undefined]).toEqual([true, false, true])
    cache.set('d', page('ddddddd')) // 4 + 7 > 10 bytes: a and c make room
    expect(cache.bytes).toBeLessThanOrEqual(10)
    expect(text(cache.get('d'))).toBe('ddddddd')
  })

  it('counts every part of a page against the byte budget', () => {
    const cache = new RenderCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 10 })
    cache.set('a', { ...page(''), parts: [Buffer.from('aaaa'), Buffer.from('aaa')] })
    expect(cache.bytes).toBe(7)
    cache.set('b', page('bbbb')) // 7 + 4 > 10: a goes
    expect([cache.get('a'), cache.bytes]).toEqual([undefined, 4])
  })

  it('does not store a page larger than the whole budget', () => {
    const cache = new RenderCache({ ttlMs: 60_000, maxEntries: 2, maxBytes: 3 })
    cache.set('big', page('four'))
    expect(cache.size).toBe(0)
  })
})

describe('isCacheableResponse', () => {
  const html = { 'content-type': 'text/html; charset=utf-8' }
  it('stores complete HTML pages only', () => {
    expect(isCacheableResponse(new Response('x', { status: 200, headers: html }))).toBe(true)
    expect(isCacheableResponse(new Response('x', { status: 404, headers: html }))).toBe(true)
    expect(isCacheableResponse(new Response('x', { status: 500, headers: html }))).toBe(false)
    expect(isCacheableResponse(new Response(null, { status: 302, headers: { location: '/ko' } }))).toBe(false)
    expect(isCacheableResponse(new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))).toBe(false)
  })

  it('never stores a response that sets a cookie or forbids storing', () => {
    expect(isCacheableResponse(new Response('x', { headers: { ...html, 'set-cookie': 'i18n_redirected=en-US' } }))).toBe(false)
    expect(isCacheableResponse(new Response('x', { headers: { ...html, 'cache-control': 'private, max-age=0' } }))).toBe(false)
  })
})

describe('nonce templates', () => {
  it('gives back the page with another nonce wherever the render put its own', () => {
    const body = Buffer.from('<script nonce="N0nce+/=">a</script><p>N0nc</p><script nonce="N0nce+/=">b</script>')
    const stored = { status: 200, headers: [], parts: splitAtNonce(body, 'N0nce+/=') }
    expect(stored.parts).toHaveLength(3)
    expect(pageWithNonce(stored, 'N0nce+/=').equals(body)).toBe(true)
    expect(pageWithNonce(stored, 'fresh').toString()).toBe('<script nonce="fresh">a</script><p>N0nc</p><script nonce="fresh">b</script>')
  })
})
