// @vitest-environment node
import type { SharePreview } from '@cumulus/protocol'
import type { LoaderFunctionArgs } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_WEB_PUBLIC_CONFIG } from '../../src/public-config'
import ko from '../locales/ko/index'
import { headers, loader, meta } from './share'

function args(url: string, sharePreview?: (id: string) => Promise<SharePreview | null>): LoaderFunctionArgs {
  const request = new Request(url)
  return { request, params: { shareId: 'sh-1' }, context: { publicConfig: DEFAULT_WEB_PUBLIC_CONFIG, cspNonce: '', ...(sharePreview ? { sharePreview } : {}) } } as unknown as LoaderFunctionArgs
}

const preview: SharePreview = { status: 'OK', title: 'Holiday', fileNum: 2, ownerName: 'Ann', passCodeRequired: false }

type Loaded = { data: Awaited<ReturnType<typeof loader>>['data']; init: ResponseInit }

describe('the share page loader', () => {
  it('looks the share up for its preview texts in the page’s language, never to be stored', async () => {
    const lookup = vi.fn(async () => preview)
    const result = (await loader(args('http://localhost/ko/s/sh-1?pwd=abcd', lookup))) as unknown as Loaded
    expect(lookup).toHaveBeenCalledWith('sh-1')
    expect(new Headers(result.init.headers).get('cache-control')).toBe('private, no-store')
    expect(result.data).toEqual({
      preview,
      texts: { title: 'Ann 님이 “Holiday”을(를) 공유했습니다', description: 'Ann 님이 Cumulus에서 항목 2개를 공유했습니다.' },
      appName: ko.common.appName,
      // The pass code stays out of the preview card's address.
      url: 'http://localhost/ko/s/sh-1',
    })
    expect(headers({} as Parameters<typeof headers>[0])).toEqual({ 'Cache-Control': 'private, no-store' })
  })

  it('renders generic texts without a lookup, or when the lookup fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    for (const lookup of [undefined, async () => Promise.reject(new Error('database down'))]) {
      const result = (await loader(args('http://localhost/s/sh-1', lookup))) as unknown as Loaded
      expect(result.data.preview).toBeNull()
      expect(result.data.texts.title).toBe('Shared files')
    }
    expect(error).toHaveBeenCalledTimes(1)
    error.mockRestore()
  })

  it('writes the title, Open Graph and Twitter tags, and keeps search engines out', async () => {
    const result = (await loader(args('http://localhost/s/sh-1', async () => preview))) as unknown as Loaded
    const tags = meta({ data: result.data } as Parameters<typeof meta>[0])
    expect(tags).toEqual(
      expect.arrayContaining([
        { title: 'Ann shared “Holiday” · Cumulus' },
        { property: 'og:title', content: 'Ann shared “Holiday”' },
        { property: 'og:description', content: 'Ann shared 2 items with you on Cumulus.' },
        { property: 'og:url', content: 'http://localhost/s/sh-1' },
        { property: 'og:type', content: 'website' },
        { name: 'twitter:card', content: 'summary' },
        { name: 'robots', content: 'noindex, nofollow' },
      ]),
    )
  })
})
