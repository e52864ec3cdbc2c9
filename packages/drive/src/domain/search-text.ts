import { createRequire } from 'node:module'

/**
 * How a name is indexed for search (decision 029). Names and queries are folded the same way:
 * NFKC (so "ＡＢＣ" and "①" are "abc" and "1"), lower case, Latin/Greek/Cyrillic accents removed
 * ("é" is "e"; Japanese voicing marks are kept: が is not か), and every run of characters that
 * is neither a letter nor a digit becomes one space, so "Q3-report_final.PDF" is
 * " q3 report final pdf" (and CJK next to Latin letters or digits is two words). The leading space makes a word start findable as " word" by the
 * trigram indexes and a name's start as a plain prefix by a B-tree.
 */

/** The three columns a name gives drive_files. */
export interface SearchColumns {
  /** The folded name with a leading space: exact and prefix matches (B-tree), word starts and substrings (trigrams). */
  search_text: string
  /** Pinyin of a name with Chinese characters, full then initials ("zhongguoditu pdf zgdt pdf"); '' otherwise. */
  search_extra: string
  /** The folded words with each CJK character a word of its own: the path for one- and two-character queries. */
  search_words: string
}

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces, matched character by character. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const HAN = /\p{Script=Han}/u
const WORD_CHAR = /[\p{L}\p{N}]/u
const ACCENTS = /[\u0300-\u036f]/g
const ASCII = /^[\x20-\x7e]*$/

// Folding one code point costs three normalizations; names repeat their characters a lot.
const folded = new Map<string, string>()
const FOLD_CACHE_MAX = 65_536

function foldCodePoint(cp: string): string {
  let out = folded.get(cp)
  if (out !== undefined) return out
  // ß has no one-letter lower case of its own: "straße" is found by "strasse" as in a case-folded comparison.
  out = cp.normalize('NFKC').toLowerCase().normalize('NFD').replace(ACCENTS, '').normalize('NFC').replace(/ß/g, 'ss')
  if (folded.size < FOLD_CACHE_MAX) folded.set(cp, out)
  return out
}

/**
 * The folded text with, for each of its UTF-16 units, where in `name` it came from
 * (`from[k]`..`to[k]`, UTF-16 offsets, end exclusive): the highlight of a suggestion maps a
 * match in the folded text back onto the name the user sees.
 */
export interface FoldedText {
  text: string
  from: number[]
  to: number[]
}

export function foldWithMap(name: string): FoldedText {
  let text = ' '
  const from = [0]
  const to = [0]
  let pendingSpace = false
  let lastWasCjk = false
  let offset = 0
  for (const cp of name) {
    const start = offset
    offset += cp.length
    const out = cp.charCodeAt(0) < 0x80 ? cp.toLowerCase() : foldCodePoint(cp)
    for (const ch of out) {
      if (WORD_CHAR.test(ch)) {
        // Where CJK meets Latin letters or digits a word starts too: "2024年报" is "2024 年报".
        const isCjk = ch.charCodeAt(0) >= 0x2e80 && CJK.test(ch)
        if ((pendingSpace || isCjk !== lastWasCjk) && text.length > 1) {
          text += ' '
          from.push(start)
          to.push(start)
        }
        pendingSpace = false
        lastWasCjk = isCjk
        text += ch
        for (let i = 0; i < ch.length; i++) {
          from.push(start)
          to.push(offset)
        }
      } else {
        pendingSpace = true
      }
    }
  }
  return text.length === 1 ? { text: '', from: [], to: [] } : { text, from, to }
}

/** A query folded as names are, without the leading space ('' when nothing searchable is left). */
export function foldQuery(query: string): string {
  if (ASCII.test(query)) return query.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()
  return foldWithMap(query).text.trim()
}

/** Whether folded text holds CJK characters (which are words of one character each). */
export function hasCjk(text: string): boolean {
  return CJK.test(text)
}

/** Folded text as words, each CJK character its own word ("中国地图 pdf" is "中 国 地 图 pdf"). */
export function wordsOf(folded: string): string {
  if (!CJK.test(folded)) return folded.trim()
  let out = ''
  for (const ch of folded) {
    if (CJK.test(ch)) out += ` ${ch} `
    else out += ch
  }
  return out.replace(/ +/g, ' ').trim()
}

/** One folded character's pinyin, or the character itself; `first` is its initial. */
interface PinyinPiece {
  /** The index of the folded text's unit it came from. */
  at: number
  full: string
  first: string
}

type Pinyin = typeof import('pinyin-pro').pinyin
let pinyinFunction: Pinyin | undefined

/**
 * pinyin-pro, loaded at the first Chinese name rather than at start: its dictionary is ~9 MB of
 * heap (~19 MB of RSS), which a server that never sees Chinese (or has not yet) should not
 * carry. Its CommonJS build is required synchronously, since the search columns are computed
 * inside synchronous code.
 */
function pinyinLibrary(): Pinyin {
  pinyinFunction ??= (createRequire(import.meta.url)('pinyin-pro') as typeof import('pinyin-pro')).pinyin
  return pinyinFunction
}

/**
 * The pinyin of folded text, a piece per character: pinyin-pro reads the text whole, so a
 * character with several readings gets the one its neighbours imply (银行 is "yinhang").
 */
function pinyinPieces(folded: string): PinyinPiece[] {
  const chars = pinyinLibrary()(folded, { type: 'all', toneType: 'none', v: true })
  const pieces: PinyinPiece[] = []
  let at = 0
  for (const c of chars) {
    const origin = c.origin
    if (c.isZh && HAN.test(origin)) pieces.push({ at, full: c.pinyin.toLowerCase().replace(/[^a-z]/g, ''), first: c.first.toLowerCase().replace(/[^a-z]/g, '') })
    else pieces.push({ at, full: origin, first: origin })
    at += origin.length
  }
  return pieces
}

/** The pinyin forms of folded text: full syllables run together, then the initials; '' without Chinese. */
export function pinyinOf(folded: string): string {
  if (!HAN.test(folded)) return ''
  const pieces = pinyinPieces(folded)
  const full = pieces.map((p) => p.full).join('')
  const first = pieces.map((p) => p.first).join('')
  return (full === first ? full : `${full}${first}`).replace(/ +/g, ' ').trim()
}

/** The search columns of a name (items.ts writes them with the name, so the index follows every rename). */
export function searchColumns(name: string): SearchColumns {
  const text = foldWithMap(name).text
  return { search_text: text, search_extra: pinyinOf(text), search_words: wordsOf(text) }
}

/**
 * Where `query` (folded) matches `name`, as [start, end) UTF-16 ranges of the name: the first
 * match at a word start, else the first anywhere, else through the pinyin of its Chinese
 * characters (full syllables, then initials). [] when it does not match.
 */
export function highlightOf(name: string, query: string): [number, number][] {
  if (query === '') return []
  const folded = foldWithMap(name)
  const { text } = folded
  const span = (k: number, length: number): [number, number][] => [[folded.from[k]!, folded.to[k + length - 1]!]]
  const atWord = text.indexOf(` ${query}`)
  if (atWord >= 0) return span(atWord + 1, query.length)
  const anywhere = text.indexOf(query)
  if (anywhere >= 0) return span(anywhere, query.length)
  if (!HAN.test(text)) return []
  const pieces = pinyinPieces(text)
  for (const form of ['full', 'first'] as const) {
    // The pinyin string, and which piece each of its units came from.
    let joined = ''
    const owner: number[] = []
    pieces.forEach((piece, i) => {
      joined += piece[form]
      for (let u = 0; u < piece[form].length; u++) owner.push(i)
    })
    const q = query.replace(/ /g, '')
    const found = joined.indexOf(q)
    if (found < 0 || q === '') continue
    const firstPiece = pieces[owner[found]!]!
    // The last unit of the piece the match ends in.
    const endPiece = owner[found + q.length - 1]!
    const endAt = endPiece + 1 < pieces.length ? pieces[endPiece + 1]!.at : text.length
    return [[folded.from[firstPiece.at]!, folded.to[endAt - 1]!]]
  }
  return []
}
