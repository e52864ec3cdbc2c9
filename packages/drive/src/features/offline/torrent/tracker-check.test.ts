import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAddressPolicy } from '../http/address-policy.js'
import type { Resolver } from '../http/safe-request.js'
import { createTrackerCheck, trackerHost } from './tracker-check.js'

const publicOnly = createAddressPolicy({ allowedPrivateRanges: [] })
/** A resolver that answers from a table, and fails for any other name. */
const table = (answers: Record<string, string[]>): Resolver => async (name) => {
  const found = answers[name]
  if (!found) throw new Error(`ENOTFOUND ${name}`)
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

describe('createTrackerCheck', () => {
  it('refuses trackers written as non-public addresses in any spelling, for udp as for http', async () => {
    const check = createTrackerCheck(publicOnly, table({}))
    const hostile = ['udp://127.0.0.1:6969', 'udp://0x7f000001:6969', 'udp://2130706433:6969', 'udp://0177.0.0.1:1', 'udp://127.1:1', 'http://[::1]/announce', 'udp://[::ffff:7f00:1]:1', 'http://169.254.169.254/announce', 'udp://10.0.0.8:80', 'https://100.64.0.1/a', 'http://[fd00::1]/a', 'http://0.0.0.0/a']
    for (const url of hostile) expect(await check(url), url).toBeNull()
    expect(await check('http://8.8.8.8/announce')).toBe('http://8.8.8.8/announce')
  })

  it('resolves a host name and refuses it when any address it names is private', async () => {
    const check = createTrackerCheck(publicOnly, table({ 'good.example': ['93.184.216.34'], 'metadata.example': ['169.254.169.254'], 'mixed.example': ['93.184.216.34', '10.1.2.3'], 'v6.example': ['::1'] }))
    expect(await check('udp://good.example:1337/announce')).toBe('udp://good.example:1337/announce')
    expect(await check('http://metadata.example/announce')).toBeNull()
    expect(await check('http://mixed.example/announce')).toBeNull()
    expect(await check('http://v6.example/announce')).toBeNull()
    expect(await check('http://unknown.example/announce')).toBeNull()
  })

  it('refuses what is not an http(s) or udp tracker', async () => {
    const check = createTrackerCheck(publicOnly, table({ 't.example': ['93.184.216.34'] }))
    for (const url of ['wss://t.example/announce', 'file:///etc/passwd', 'not a url', 'gopher://t.example/', 'udp://', '']) expect(await check(url), url).toBeNull()
  })

  it('refuses what parsers read differently (a backslash, whitespace, control characters) and credentials, and gives the engine the URL it checked', async () => {
    const check = createTrackerCheck(publicOnly, table({ 't.example': ['93.184.216.34'] }))
    // WHATWG reads the backslash as a slash (host 1.1.1.1); aria2 would connect to 127.0.0.1.
    for (const url of ['http://1.1.1.1\\@127.0.0.1:6969/announce', 'http://t.example\\evil/announce', 'http://t.example/ann ounce', 'http://t.example/a\nb', 'http://user:pass@t.example/announce', 'http://x@t.example/announce', 'udp://1.1.1.1\\@127.0.0.1:80']) {
      expect(await check(url), JSON.stringify(url)).toBeNull()
    }
    expect(await check('HTTP://T.EXAMPLE:80/announce?passkey=abc')).toBe('http://t.example/announce?passkey=abc')
  })

  it('lets through private trackers the operator allows', async () => {
    const check = createTrackerCheck(createAddressPolicy({ allowedPrivateRanges: ['127.0.0.1/32'] }), table({ localhost: ['127.0.0.1'] }))
    expect(await check('udp://0x7f000001:6969')).toBe('udp://0x7f000001:6969')
    expect(await check('http://localhost:8000/announce')).toBe('http://localhost:8000/announce')
    expect(await check('http://127.0.0.2/announce')).toBeNull()
  })

  it('never allows a tracker whose host, however written, is a loopback or private IPv4 address (property)', async () => {
    const check = createTrackerCheck(publicOnly, table({}))
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    )
    const spelled = privateV4.chain(([a, b, c, d]) => {
      const n = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d
      return fc.constantFrom(`${a}.${b}.${c}.${d}`, String(n), `0x${n.toString(16)}`, `0${a.toString(8)}.${b}.${c}.${d}`, `[::ffff:${a}.${b}.${c}.${d}]`)
    })
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('udp', 'http', 'https'), spelled, fc.integer({ min: 1, max: 65535 }), async (scheme, host, port) => {
        expect(await check(`${scheme}://${host}:${port}/announce`)).toBeNull()
      }),
    )
  })
})

describe('trackerHost', () => {
  it('normalises a udp host like an http one', () => {
    expect(trackerHost('udp://0x7f000001:6969')).toBe('127.0.0.1')
    expect(trackerHost('udp://[::1]:1')).toBe('::1')
    expect(trackerHost('wss://t.example')).toBeNull()
  })
})
