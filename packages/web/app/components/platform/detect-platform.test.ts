import { describe, expect, it } from 'vitest'
import { PLATFORMS } from '../../../src/public-config'
import { detectPlatform, orderPlatforms, visitorPlatformOf } from './detect-platform'

const UA = {
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  ubuntuFirefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0',
  androidWebView: 'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  curl: 'curl/8.5.0',
}

describe('detectPlatform', () => {
  it.each([
    ['windowsChrome', 'windows'],
    ['windowsEdge', 'windows'],
    ['macSafari', 'macos'],
    ['macFirefox', 'macos'],
    ['linuxFirefox', 'linux'],
    ['ubuntuFirefox', 'linux'],
    ['androidChrome', 'android'],
    ['androidFirefox', 'android'],
    ['androidWebView', 'android'],
  ] as const)('recognises %s as %s', (agent, platform) => {
    expect(detectPlatform(UA[agent])).toBe(platform)
  })

  // Android says "Linux" and iOS says "like Mac OS X": neither may be taken for the desktop.
  it('never takes Android for Linux, nor iOS for macOS', () => {
    expect(detectPlatform(UA.androidChrome)).not.toBe('linux')
    expect(detectPlatform(UA.iphone)).not.toBe('macos')
    expect(detectPlatform(UA.ipad)).not.toBe('macos')
  })

  it.each([['iphone'], ['ipad'], ['chromebook'], ['googlebot'], ['curl']] as const)('falls back to the web for %s', (agent) => {
    expect(detectPlatform(UA[agent])).toBe('web')
  })

  it('falls back to the web without a user agent', () => {
    expect(detectPlatform(null)).toBe('web')
    expect(detectPlatform(undefined)).toBe('web')
    expect(detectPlatform('')).toBe('web')
  })
})

describe('orderPlatforms', () => {
  it('puts the visitor first and keeps the others in their usual order', () => {
    expect(orderPlatforms('linux')).toEqual(['linux', 'web', 'windows', 'macos', 'android'])
    expect(orderPlatforms('web')).toEqual(['web', 'windows', 'macos', 'linux', 'android'])
  })

  it('lists every platform exactly once', () => {
    for (const visitor of PLATFORMS) expect([...orderPlatforms(visitor)].sort()).toEqual([...PLATFORMS].sort())
  })
})

describe('visitorPlatformOf', () => {
  it('reads the request’s user agent (what the page loaders return)', () => {
    expect(visitorPlatformOf(new Request('http://localhost/', { headers: { 'user-agent': UA.androidChrome } }))).toEqual({ visitorPlatform: 'android' })
    expect(visitorPlatformOf(new Request('http://localhost/'))).toEqual({ visitorPlatform: 'web' })
  })
})
