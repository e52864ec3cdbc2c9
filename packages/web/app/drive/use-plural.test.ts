import { describe, expect, it } from 'vitest'
import { LOCALES } from '../i18n/locale-routing'
import { pluralForm } from './use-plural'

describe('pluralForm', () => {
  it('takes the one-item text for exactly one item in every language, singular or not', () => {
    for (const locale of LOCALES) {
      expect([locale, pluralForm(locale, 1)]).toEqual([locale, 'one'])
      for (const count of [0, 2, 5, 11, 21, 100_000]) expect([locale, count, pluralForm(locale, count)]).toEqual([locale, count, 'other'])
    }
  })
})
