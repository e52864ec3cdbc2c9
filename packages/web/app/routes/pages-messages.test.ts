import { LOCALES } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { ALL_MESSAGES } from '../../test/render'

/** Every leaf of a message table as `path -> text`. */
function leaves(table: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(table as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [inner, text] of leaves(value, path)) out.set(inner, text)
  }
  return out
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

describe('the pages messages', () => {
  const english = leaves(ALL_MESSAGES['en-US'].pages)

  it.each(LOCALES.filter((l) => l !== 'en-US'))('%s has every key, no empty text, and the same placeholders', (locale) => {
    const table = leaves(ALL_MESSAGES[locale].pages)
    expect([...table.keys()].sort()).toEqual([...english.keys()].sort())
    for (const [key, text] of table) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('')
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(english.get(key)!))
    }
  })

  // Brand and protocol names stay as they are; anything longer must be translated.
  it.each(LOCALES.filter((l) => l !== 'en-US'))('%s translates every sentence', (locale) => {
    const table = leaves(ALL_MESSAGES[locale].pages)
    const untranslated = [...table].filter(([key, text]) => text === english.get(key) && text.split(' ').length > 3).map(([key]) => key)
    expect(untranslated).toEqual([])
  })
})
