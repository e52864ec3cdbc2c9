import { PLATFORMS, type Platform } from '../../../src/public-config'

/**
 * The visitor's platform from a User-Agent string, for ordering the platform cards (spec 2:
 * home and thunder share a platform card). Runs in the route loaders on the server, so the
 * server-rendered order is already the final one and nothing moves after hydration.
 *
 * Anything not recognised (bots, iPhones and iPads, ChromeOS, an empty header) is `web`: the
 * browser is the one platform every visitor has.
 */
export function detectPlatform(userAgent: string | null | undefined): Platform {
  const ua = userAgent ?? ''
  // Android's user agent also says "Linux"; iOS browsers say "like Mac OS X". Test them first.
  if (/\bAndroid\b/i.test(ua)) return 'android'
  if (/\b(iPhone|iPad|iPod)\b/i.test(ua)) return 'web'
  if (/\bWindows\b|\bWin(32|64)\b/i.test(ua)) return 'windows'
  if (/\bMacintosh\b|\bMac OS X\b/i.test(ua)) return 'macos'
  if (/\bCrOS\b/i.test(ua)) return 'web'
  if (/\bLinux\b|\bX11\b/i.test(ua)) return 'linux'
  return 'web'
}

/** Every platform once, the visitor's first, the rest in their usual order. */
export function orderPlatforms(visitor: Platform): Platform[] {
  return [visitor, ...PLATFORMS.filter((platform) => platform !== visitor)]
}

/** What a page with platform cards loads: the platform of the request's user agent. */
export function visitorPlatformOf(request: Request): { visitorPlatform: Platform } {
  return { visitorPlatform: detectPlatform(request.headers.get('user-agent')) }
}
