import type { LoaderFunctionArgs } from 'react-router'
import { describe, expect, it } from 'vitest'
import { DEFAULT_WEB_PUBLIC_CONFIG } from '../../src/public-config'
import { handle as thunderHandle, loader as thunderLoader } from './thunder'
import { loader as homeLoader } from './home'
import { loader as toappLoader } from './toapp'

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

function args(url: string, userAgent?: string): LoaderFunctionArgs {
  const request = new Request(url, { headers: userAgent ? { 'user-agent': userAgent } : {} })
  return { request, params: {}, context: { publicConfig: DEFAULT_WEB_PUBLIC_CONFIG } } as unknown as LoaderFunctionArgs
}

describe('the loaders of the pages with platform cards', () => {
  it.each([
    ['home', homeLoader, 'http://localhost/'],
    ['thunder', thunderLoader, 'http://localhost/ko/thunder'],
    ['toapp', toappLoader, 'http://localhost/toapp'],
  ] as const)('%s detects the platform on the server, from the request', (_name, loader, url) => {
    expect(loader(args(url, ANDROID))).toEqual({ visitorPlatform: 'android' })
    expect(loader(args(url, MAC))).toEqual({ visitorPlatform: 'macos' })
    expect(loader(args(url))).toEqual({ visitorPlatform: 'web' })
  })
})

describe('the thunder page', () => {
  it('forces the dark colour mode', () => {
    expect(thunderHandle).toEqual({ colorMode: 'dark' })
  })
})
