import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TorrentEngineError, type TorrentMeta } from './torrent-engine.js'
import { MAX_TORRENT_FILES, parseMagnet, readTorrentMeta, resolveSelection } from './torrent-source.js'

const RFC4648 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** Base32 (RFC 4648, no padding) of 20 bytes: 32 characters, as in a `urn:btih:` topic. */
function base32(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += RFC4648[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return out
}

const infoHashBytes = fc.uint8Array({ minLength: 20, maxLength: 20 })
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('parseMagnet', () => {
  it('reads the same info hash from hex (either case) and base32 (either case) topics', () => {
    fc.assert(
      fc.property(infoHashBytes, fc.boolean(), fc.boolean(), (bytes, upperHex, lowerBase32) => {
        const expected = hex(bytes)
        const hexTopic = upperHex ? expected.toUpperCase() : expected
        const base32Topic = lowerBase32 ? base32(bytes).toLowerCase() : base32(bytes)
        expect(parseMagnet(`magnet:?xt=urn:btih:${hexTopic}`).infoHash).toBe(expected)
        expect(parseMagnet(`magnet:?xt=urn:btih:${base32Topic}`).infoHash).toBe(expected)
      }),
    )
  })

  it('keeps the display name and the http, https and udp trackers, in order and once each', () => {
    const tracker = fc.constantFrom('http://t.example/announce', 'https://t.example:8443/a?k=1', 'udp://t.example:6969', 'wss://t.example', 'not a url')
    fc.assert(
      fc.property(infoHashBytes, fc.string({ minLength: 1 }), fc.array(tracker, { maxLength: 6 }), (bytes, name, trackers) => {
        const uri = `magnet:?xt=urn:btih:${hex(bytes)}&dn=${encodeURIComponent(name)}${trackers.map((t) => `&tr=${encodeURIComponent(t)}`).join('')}`
        const expectedTrackers = [...new Set(trackers.filter((t) => /^(https?|udp):/.test(t)))]
        expect(parseMagnet(uri)).toEqual({ infoHash: hex(bytes), displayName: name.trim() === '' ? null : name, trackers: expectedTrackers })
      }),
    )
  })

  it('answers any string with a link or invalid_source, never another error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map((s) => `magnet:?${s}`), fc.string().map((s) => `magnet:?xt=urn:btih:${s}`)), (uri) => {
        try {
          expect(parseMagnet(uri).infoHash).toMatch(/^[0-9a-f]{40}$/)
        } catch (error) {
          expect(error).toBeInstanceOf(TorrentEngineError)
          expect((error as TorrentEngineError).code).toBe('invalid_source')
        }
      }),
    )
  })

  it.each([
    ['not a magnet', 'http://example.com/a.torrent'],
    ['no topic', 'magnet:?dn=x'],
    ['a short hash', 'magnet:?xt=urn:btih:abc'],
    ['a 41-digit hash (magnet-uri would take the first 40)', `magnet:?xt=urn:btih:${'a'.repeat(41)}`],
    ['non-hex digits', `magnet:?xt=urn:btih:${'g'.repeat(40)}`],
    ['base32 with 0, 1, 8, 9', `magnet:?xt=urn:btih:${'0189'.repeat(8)}`],
    ['two v1 topics', `magnet:?xt=urn:btih:${'a'.repeat(40)}&xt=urn:btih:${'b'.repeat(40)}`],
    ['only a v2 topic', `magnet:?xt=urn:btmh:1220${'a'.repeat(64)}`],
  ])('refuses %s', (_, uri) => {
    expect(() => parseMagnet(uri)).toThrow(expect.objectContaining({ code: 'invalid_source' }))
  })
})

describe('parseMagnet, where magnet-uri alone gets it wrong', () => {
  // magnet-uri 7.0.10 turns %2B in `dn` into a space and drops a `tr` with an unescaped "=".
  it('keeps an escaped "+" in the name and a tracker whose query has "="', () => {
    const uri = `magnet:?xt=urn:btih:${'a'.repeat(40)}&dn=C%2B%2B+notes&tr=http://t.example/announce?passkey=abc`
    expect(parseMagnet(uri)).toEqual({ infoHash: 'a'.repeat(40), displayName: 'C++ notes', trackers: ['http://t.example/announce?passkey=abc'] })
  })

  it('keeps a broken %-escape in the name as typed instead of failing', () => {
    expect(parseMagnet(`magnet:?xt=urn:btih:${'a'.repeat(40)}&dn=50%25%E0%A4%A`).displayName).toBe('50%\ufffd%A')
  })
})

describe('resolveSelection', () => {
  const meta: TorrentMeta = {
    infoHash: 'a'.repeat(40),
    name: 'album',
    multiFile: true,
    files: [
      { index: 1, path: ['a.bin'], sizeBytes: 10, padding: false },
      { index: 2, path: ['.pad', '6'], sizeBytes: 6, padding: true },
      { index: 3, path: ['c.txt'], sizeBytes: 4, padding: false },
    ],
    totalBytes: 14,
    trackers: [],
    torrentFile: new Uint8Array(),
  }

  it('selects every non-padding file when nothing is picked', () => {
    expect(resolveSelection(meta, undefined)).toEqual([1, 3])
    expect(resolveSelection(meta, [])).toEqual([1, 3])
  })

  it('sorts and deduplicates a pick and drops padding from it', () => {
    expect(resolveSelection(meta, [3, 2, 3])).toEqual([3])
  })

  it('refuses indexes outside the torrent and a pick of padding only', () => {
    expect(() => resolveSelection(meta, [0])).toThrow(expect.objectContaining({ code: 'invalid_selection' }))
    expect(() => resolveSelection(meta, [4])).toThrow(expect.objectContaining({ code: 'invalid_selection' }))
    expect(() => resolveSelection(meta, [1.5])).toThrow(expect.objectContaining({ code: 'invalid_selection' }))
    expect(() => resolveSelection(meta, [2])).toThrow(expect.objectContaining({ code: 'invalid_selection' }))
  })
})

describe('readTorrentMeta', () => {
  /** A bencoded multi-file torrent of `files` one-byte files (made-up piece hashes: never downloaded), the key `length` spelled `lengthKey`. */
  function torrentOf(files: number, lengthKey = '6:length'): Uint8Array {
    const entry = (i: number) => {
      const name = `f${i}`
      return `d${lengthKey}i1e4:pathl${name.length}:${name}ee`
    }
    const list = Array.from({ length: files }, (_, i) => entry(i)).join('')
    const pieces = Math.ceil(files / 16384) * 20
    return Buffer.concat([Buffer.from(`d4:infod5:filesl${list}e4:name4:many12:piece lengthi16384e6:pieces${pieces}:`), Buffer.alloc(pieces, 7), Buffer.from('ee')])
  }

  it('reads the files of a torrent', async () => {
    const meta = await readTorrentMeta(torrentOf(3))
    expect(meta.files.map((f) => [f.index, f.path.join('/'), f.sizeBytes])).toEqual([
      [1, 'f0', 1],
      [2, 'f1', 1],
      [3, 'f2', 1],
    ])
  })

  it(`refuses a torrent of more than ${MAX_TORRENT_FILES} files, however its keys are spelled`, async () => {
    // 6.0:length decodes as the key "length" too (bencode reads a string's length up to the dot).
    for (const lengthKey of ['6:length', '06:length', '6.0:length']) {
      const refused = await readTorrentMeta(torrentOf(MAX_TORRENT_FILES + 1, lengthKey)).catch((err: unknown) => err)
      expect(refused).toBeInstanceOf(TorrentEngineError)
      expect((refused as TorrentEngineError).code).toBe('invalid_source')
      expect((refused as Error).message).toContain(String(MAX_TORRENT_FILES))
    }
  })

  it('refuses a torrent of too many files before decoding it, when its length keys alone are too many', async () => {
    const refused = await readTorrentMeta(torrentOf(3 * MAX_TORRENT_FILES + 1)).catch((err: unknown) => err)
    expect((refused as Error).message).toContain(String(MAX_TORRENT_FILES))
  })
})
