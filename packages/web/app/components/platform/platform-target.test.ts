import { describe, expect, it } from 'vitest'
import { resolvePlatformTarget } from './platform-target'

describe('resolvePlatformTarget', () => {
  it('offers the web app install for `pwa`', () => {
    expect(resolvePlatformTarget('pwa', 'en-US')).toEqual({ kind: 'pwa' })
  })

  it('localizes a page path and keeps its hash and query', () => {
    expect(resolvePlatformTarget('/newbie/guide#cli', 'en-US')).toEqual({ kind: 'page', to: '/newbie/guide#cli' })
    expect(resolvePlatformTarget('/newbie/guide#cli', 'ko')).toEqual({ kind: 'page', to: '/ko/newbie/guide#cli' })
    expect(resolvePlatformTarget('/account/home?tab=devices', 'zh-TW')).toEqual({ kind: 'page', to: '/zh-TW/account/home?tab=devices' })
    expect(resolvePlatformTarget('/', 'ms')).toEqual({ kind: 'page', to: '/ms' })
    expect(resolvePlatformTarget('/decompress/abc', 'id')).toEqual({ kind: 'page', to: '/id/decompress/abc' })
  })

  it('uses any other path as given (a file on this server)', () => {
    expect(resolvePlatformTarget('/downloads/Cumulus-Setup.exe', 'ko')).toEqual({ kind: 'path', href: '/downloads/Cumulus-Setup.exe' })
  })

  it('treats http(s) URLs as external links', () => {
    expect(resolvePlatformTarget('https://github.com/example/cumulus/releases', 'en-US')).toEqual({ kind: 'external', href: 'https://github.com/example/cumulus/releases' })
    expect(resolvePlatformTarget(' http://downloads.example.org/cumulus.apk ', 'en-US')).toEqual({ kind: 'external', href: 'http://downloads.example.org/cumulus.apk' })
  })

  it('refuses script, data and protocol-relative targets and garbage', () => {
    for (const value of ['javascript:alert(1)', 'data:text/html,<script>1</script>', '//evil.example/x', '/\\evil.example', 'ftp://example.org/app', 'not a link', ''])
      expect(resolvePlatformTarget(value, 'en-US')).toEqual({ kind: 'invalid' })
  })
})
