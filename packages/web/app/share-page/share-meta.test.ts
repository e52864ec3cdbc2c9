// @vitest-environment node
import type { SharePreview } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import en from '../locales/en-US/index'
import ko from '../locales/ko/index'
import { shareMetaTexts } from './share-meta'

const preview = (overrides: Partial<SharePreview>): SharePreview => ({ status: 'OK', title: 'Holiday', fileNum: 3, ownerName: 'Ann', passCodeRequired: false, ...overrides })

describe('shareMetaTexts', () => {
  it('names the owner, the title and the item count of a public share', () => {
    expect(shareMetaTexts(en.sharePage.meta, preview({}), 'en-US')).toEqual({ title: 'Ann shared “Holiday”', description: 'Ann shared 3 items with you on Cumulus.' })
    expect(shareMetaTexts(en.sharePage.meta, preview({ fileNum: 1 }), 'en-US').description).toBe('Ann shared 1 item with you on Cumulus.')
    expect(shareMetaTexts(ko.sharePage.meta, preview({ fileNum: 1200 }), 'ko').description).toBe('Ann 님이 Cumulus에서 항목 1,200개를 공유했습니다.')
  })

  // The pass code guards the names too: a link preview must not show them.
  it('names only the owner of a share behind a pass code', () => {
    const texts = shareMetaTexts(en.sharePage.meta, preview({ passCodeRequired: true, status: 'PASS_CODE_EMPTY', title: '', fileNum: 0 }), 'en-US')
    expect(texts).toEqual({ title: 'Ann shared files with you', description: en.sharePage.meta.lockedDescription })
  })

  it('says a gone share is unavailable, and stays generic without a lookup', () => {
    expect(shareMetaTexts(en.sharePage.meta, preview({ status: 'EXPIRED', title: '', ownerName: '' }), 'en-US').title).toBe(en.sharePage.meta.unavailableTitle)
    expect(shareMetaTexts(en.sharePage.meta, null, 'en-US').title).toBe(en.sharePage.meta.unavailableTitle)
    expect(shareMetaTexts(en.sharePage.meta, undefined, 'en-US')).toEqual({ title: en.sharePage.meta.genericTitle, description: en.sharePage.meta.genericDescription })
  })
})
