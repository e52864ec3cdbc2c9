// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LOCALES } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { ALL_MESSAGES } from '../../test/render'

type Tree = { [key: string]: string | Tree }

/** `{ a: { b: 'x' } }` -> `[['a.b', 'x']]`. */
function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`)))
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

const english = new Map(flatten(ALL_MESSAGES['en-US'] as unknown as Tree))

describe.each(LOCALES.filter((l) => l !== 'en-US'))('%s messages', (locale) => {
  const messages = new Map(flatten(ALL_MESSAGES[locale] as unknown as Tree))

  it('has exactly the keys of en-US', () => {
    expect([...messages.keys()].sort()).toEqual([...english.keys()].sort())
  })

  it('has no empty text and the same {{placeholders}} as en-US', () => {
    for (const [key, text] of messages) {
      expect(text.trim(), key).not.toBe('')
      expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''))
    }
  })

  it('is translated, not English left in place', () => {
    // Brand names and codes may stay the same; most sentences may not.
    const same = [...messages].filter(([key, text]) => text === english.get(key) && /[a-z]{3,}\s+[a-z]{3,}/i.test(text))
    expect(same.map(([key]) => key)).toEqual([])
  })
})

/** Every `t('…')` key written literally in the app's source must exist (a missing key fails here). */
describe('keys used in the source', () => {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const files: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !path.includes(`${join('app', 'locales')}`)) files.push(path)
    }
  }
  walk(root)

  it('exist in the en-US tables', () => {
    const missing: string[] = []
    for (const file of files) {
      const source = readFileSync(file, 'utf8')
      for (const match of source.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) {
        const key = match[1]!
        // A key may name a group whose children are chosen at run time (t(`a.${x}`) is not matched).
        if (!english.has(key) && !flatten(ALL_MESSAGES['en-US'] as unknown as Tree).some(([k]) => k.startsWith(`${key}.`))) missing.push(`${file.slice(root.length)}: ${key}`)
      }
    }
    expect(missing).toEqual([])
  })
})
