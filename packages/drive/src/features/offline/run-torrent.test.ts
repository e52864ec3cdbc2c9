import { describe, expect, it } from 'vitest'
import { publicTrackersOnly } from './run-torrent.js'

const HASH = '0123456789abcdef0123456789abcdef01234567'
const magnetWith = (trackers: string[]) => `magnet:?xt=urn:btih:${HASH}&dn=x${trackers.map((t) => `&tr=${encodeURIComponent(t)}`).join('')}`
const trackersOf = (magnet: string) => new URLSearchParams(magnet.slice('magnet:?'.length)).getAll('tr')

describe('publicTrackersOnly', () => {
  it('drops trackers written as non-public addresses in any spelling, for udp as for http', () => {
    const hostile = ['udp://127.0.0.1:6969', 'udp://0x7f000001:6969', 'udp://2130706433:6969', 'udp://0177.0.0.1:1', 'udp://127.1:1', 'http://[::1]/announce', 'udp://[::ffff:7f00:1]:1', 'http://169.254.169.254/announce', 'udp://10.0.0.8:80']
    const kept = ['udp://tracker.example.org:1337/announce', 'http://8.8.8.8/announce']
    const result = publicTrackersOnly(magnetWith([...hostile, ...kept]), [])
    expect(trackersOf(result)).toEqual(kept)
    expect(result).toContain(`xt=urn%3Abtih%3A${HASH}`)
  })

  it('keeps trackers the operator allows', () => {
    expect(trackersOf(publicTrackersOnly(magnetWith(['udp://0x7f000001:6969']), ['127.0.0.1/32']))).toEqual(['udp://0x7f000001:6969'])
  })
})
