import { AccountErrors, CAPTCHA_REJECT, ERROR_INFO_TYPE, GenericErrors, LocalErrors, type ErrorEntry } from '@cumulus/protocol'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IdentityError } from './errors.js'
import { Transport, backoffMs, buildUrl } from './transport.js'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const wire = (entry: ErrorEntry, details: unknown[] = []) =>
  json({ error: entry.reason, error_code: entry.code, error_description: 'x', error_uri: '', details }, entry.status)

function setup(replies: (url: string) => Response | Error, { retry = 2, origins = ['https://a.test', 'https://b.test'] } = {}) {
  const urls: string[] = []
  const inits: RequestInit[] = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input))
    inits.push(init ?? {})
    const reply = replies(String(input))
    if (reply instanceof Error) throw reply
    return reply
  })
  const sleeps: number[] = []
  const sleep = (ms: number) => {
    sleeps.push(ms)
    return new Promise<void>((resolve) => setTimeout(resolve, ms))
  }
  const transport = new Transport({ clientId: 'web', origins, retry, fetch: fetch as typeof globalThis.fetch, sleep })
  return { transport, urls, inits, sleeps, fetch }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('Transport', () => {
  it('sends the protocol headers, a JSON body and cors mode', async () => {
    const { transport, inits } = setup(() => json({ ok: 1 }))
    await expect(transport.send({ method: 'POST', path: '/v1/x', body: { a: 1 }, headers: { authorization: 'Bearer t' } })).resolves.toEqual({ ok: 1 })
    const headers = inits[0]?.headers as Record<string, string>
    expect(headers).toMatchObject({
      'x-client-id': 'web',
      'x-sdk-version': '7.0.8',
      'x-protocol-version': '301',
      'content-type': 'application/json',
      authorization: 'Bearer t',
    })
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(inits[0]).toMatchObject({ method: 'POST', mode: 'cors', body: '{"a":1}' })
  })

  it('sends no body or content type on a GET', async () => {
    const { transport, inits, urls } = setup(() => json({}))
    await transport.send({ method: 'GET', path: '/v1/user/me', query: { a: 'b c', skip: undefined } })
    expect(inits[0]?.body).toBeUndefined()
    expect((inits[0]?.headers as Record<string, string>)['content-type']).toBeUndefined()
    expect(urls[0]).toBe('https://a.test/v1/user/me?a=b+c')
  })

  it('moves to the next origin when one is unreachable, and remembers it', async () => {
    const { transport, urls, sleeps } = setup((url) => (url.startsWith('https://a.test') ? new TypeError('fetch failed') : json({})))
    await transport.send({ method: 'GET', path: '/p' })
    expect(urls).toEqual(['https://a.test/p', 'https://b.test/p'])
    expect(sleeps).toEqual([])
    expect(transport.origin).toBe('https://b.test')
    await transport.send({ method: 'GET', path: '/q' })
    expect(urls[2]).toBe('https://b.test/q')
  })

  it('uses a fresh request id per attempt', async () => {
    const { transport, inits } = setup((url) => (url.startsWith('https://a.test') ? new TypeError('down') : json({})))
    await transport.send({ method: 'GET', path: '/p' })
    const ids = inits.map((i) => (i.headers as Record<string, string>)['x-request-id'])
    expect(new Set(ids).size).toBe(2)
  })

  it('retries unreachable rounds with 2^n s back-off, then fails unreachable', async () => {
    const { transport, urls, sleeps } = setup(() => new TypeError('down'), { retry: 2 })
    const result = transport.send({ method: 'GET', path: '/p' }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(1999)
    expect(urls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(urls).toHaveLength(4)
    await vi.advanceTimersByTimeAsync(4000)
    const error = await result
    expect(error).toBeInstanceOf(IdentityError)
    expect(error).toMatchObject({ error: 'unreachable', errorCode: LocalErrors.unreachable.code, status: 0 })
    expect(urls).toHaveLength(6)
    expect(sleeps).toEqual([2000, 4000])
  })

  it('never makes more than 15 attempts for one request', async () => {
    const origins = ['https://a.test', 'https://b.test', 'https://c.test', 'https://d.test']
    const { transport, urls } = setup(() => new TypeError('down'), { retry: 5, origins })
    const result = transport.send({ method: 'GET', path: '/p' }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(await result).toMatchObject({ error: 'unreachable' })
    expect(urls).toHaveLength(15)
  })

  it.each([GenericErrors.unavailable, GenericErrors.deadline_exceeded, GenericErrors.internal])('retries a 5xx %s', async (entry) => {
    let n = 0
    const { transport, sleeps } = setup(() => (n++ < 2 ? wire(entry) : json({ done: true })))
    const result = transport.send({ method: 'GET', path: '/p' })
    await vi.advanceTimersByTimeAsync(6000)
    await expect(result).resolves.toEqual({ done: true })
    expect(sleeps).toEqual([2000, 4000])
  })

  it('gives up after `retry` retries on 5xx', async () => {
    const { transport, urls } = setup(() => wire(GenericErrors.unavailable), { retry: 1 })
    const result = transport.send({ method: 'GET', path: '/p' }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(2000)
    expect(await result).toMatchObject({ error: 'unavailable', status: 503 })
    expect(urls).toHaveLength(2)
  })

  it.each([GenericErrors.not_found, GenericErrors.unauthenticated, AccountErrors.invalid_account_or_password, GenericErrors.unimplemented])(
    'does not retry %s',
    async (entry) => {
      const { transport, urls } = setup(() => wire(entry))
      await expect(transport.send({ method: 'GET', path: '/p' })).rejects.toMatchObject({ error: entry.reason, status: entry.status })
      expect(urls).toHaveLength(1)
    },
  )

  it('does not retry a captcha rejection', async () => {
    const { transport, urls } = setup(() => wire(AccountErrors.captcha_invalid, [{ '@type': ERROR_INFO_TYPE, reason: CAPTCHA_REJECT }]))
    await expect(transport.send({ method: 'POST', path: '/p', body: {} })).rejects.toMatchObject({ detailReason: CAPTCHA_REJECT })
    expect(urls).toHaveLength(1)
  })

  it('with retry 0 still rotates origins once, without waiting', async () => {
    const { transport, urls, sleeps } = setup(() => new TypeError('down'), { retry: 0 })
    await expect(transport.send({ method: 'GET', path: '/p' })).rejects.toMatchObject({ error: 'unreachable' })
    expect(urls).toHaveLength(2)
    expect(sleeps).toEqual([])
  })

  it('reports a 2xx that is not JSON as local_invalid_response, and an empty 2xx as {}', async () => {
    const { transport } = setup((url) => (url.endsWith('/html') ? new Response('<html>', { status: 200 }) : new Response(null, { status: 204 })))
    await expect(transport.send({ method: 'GET', path: '/html' })).rejects.toMatchObject({ error: 'local_invalid_response', errorCode: 8003 })
    await expect(transport.send({ method: 'GET', path: '/empty' })).resolves.toEqual({})
  })

  it('hands a reply\'s Retry-After to the error, and does not retry a 429', async () => {
    const reply = () => new Response(JSON.stringify({ error: GenericErrors.resource_exhausted.reason, error_code: GenericErrors.resource_exhausted.code }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '42' } })
    const { transport, urls } = setup(reply)
    await expect(transport.send({ method: 'POST', path: '/v1/auth/verification', body: {} })).rejects.toMatchObject({ error: 'resource_exhausted', status: 429, retryAfterSeconds: 42 })
    expect(urls).toHaveLength(1)
    const { transport: plain } = setup(() => wire(AccountErrors.captcha_invalid))
    await expect(plain.send({ method: 'POST', path: '/p', body: {} })).rejects.toMatchObject({ retryAfterSeconds: undefined })
  })

  it('reports an aborted request as cancelled, not unreachable', async () => {
    const controller = new AbortController()
    controller.abort()
    const { transport, urls } = setup(() => new DOMException('aborted', 'AbortError'))
    await expect(transport.send({ method: 'GET', path: '/p', signal: controller.signal })).rejects.toMatchObject({ error: 'cancelled', errorCode: 1 })
    expect(urls).toHaveLength(1)
  })
})

it('backoffMs is 2^n seconds', () => {
  expect([1, 2, 3].map(backoffMs)).toEqual([2000, 4000, 8000])
})

it('buildUrl joins origin and path', () => {
  expect(buildUrl('https://a.test/', '/v1/x', { n: 1 })).toBe('https://a.test/v1/x?n=1')
})
