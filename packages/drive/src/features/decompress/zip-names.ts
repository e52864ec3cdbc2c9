import chardet from 'chardet'
import iconv from 'iconv-lite'

/**
 * The code page of a zip's names that carry no UTF-8 flag, and its 7-Zip number (passed to
 * `7zz -mcp=` so the unpacked names are decoded the same way as the listed ones).
 */
export interface ZipNameEncoding {
  name: 'utf-8' | 'gb18030' | 'big5' | 'shift_jis' | 'cp949' | 'cp437'
  codePage: number
}

const UTF8: ZipNameEncoding = { name: 'utf-8', codePage: 65001 }
const CP437: ZipNameEncoding = { name: 'cp437', codePage: 437 }
/**
 * chardet's names for the legacy code pages zips made on Chinese, Japanese and Korean systems use,
 * the most common first.
 */
const EAST_ASIAN: Record<string, ZipNameEncoding> = {
  GB18030: { name: 'gb18030', codePage: 936 },
  Shift_JIS: { name: 'shift_jis', codePage: 932 },
  'EUC-KR': { name: 'cp949', codePage: 949 },
  Big5: { name: 'big5', codePage: 950 },
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Picks one encoding for all of an archive's unflagged names, judged together (one short name
 * says little). Plain ASCII and valid UTF-8 (many tools write UTF-8 without the flag) come
 * first. Then the most likely East Asian code page that chardet names and that decodes every
 * name without loss. Else CP437, which the zip specification names. `preferred` (the code page
 * of the user's language) breaks what is still a tie: a few bytes of Hangul are also valid
 * hanzi, and a Korean user's archive is most likely Korean.
 */
export function detectZipNameEncoding(rawNames: Buffer[], preferred: ZipNameEncoding['name'] | null = null): ZipNameEncoding {
  if (rawNames.every(isUtf8)) return UTF8
  const all = Buffer.concat(rawNames)
  // Short texts often leave chardet undecided (several candidates at the same confidence): ties
  // go to the code page that archives are most often made in (EAST_ASIAN's order).
  const order = Object.keys(EAST_ASIAN).sort((a, b) => Number(EAST_ASIAN[b]!.name === preferred) - Number(EAST_ASIAN[a]!.name === preferred))
  const guesses = chardet
    .analyse(all)
    .filter((guess) => guess.name in EAST_ASIAN && guess.confidence >= 10)
    .sort((a, b) => b.confidence - a.confidence || order.indexOf(a.name) - order.indexOf(b.name))
  // Short names leave chardet undecided, and GBK and Big5 decode each other's bytes without
  // error. What tells them apart is where the characters sit: names use common characters, and
  // each code page keeps its common ones in a known block (GB2312's hanzi, Big5's frequent
  // ones, JIS kana and kanji, KS X 1001 Hangul). The candidate that puts the most characters
  // there wins; then chardet's confidence; then the order above.
  let best: { encoding: ZipNameEncoding; share: number; confidence: number } | null = null
  for (const guess of guesses) {
    const encoding = EAST_ASIAN[guess.name]!
    if (!rawNames.every((raw) => roundTrips(raw, encoding.name))) continue
    const share = commonShare(rawNames, encoding.name)
    if (!best || share > best.share || (share === best.share && guess.confidence === best.confidence && encoding.name === preferred)) best = { encoding, share, confidence: guess.confidence }
  }
  if (best) return best.encoding
  return CP437
}

/** The legacy code page that archives made by speakers of `language` (a BCP 47 tag) most likely use. */
export function codePageOfLanguage(language: string): ZipNameEncoding['name'] | null {
  const tag = language.toLowerCase()
  if (tag.startsWith('zh-tw') || tag.startsWith('zh-hk') || tag.startsWith('zh-hant')) return 'big5'
  if (tag.startsWith('zh')) return 'gb18030'
  if (tag.startsWith('ja')) return 'shift_jis'
  if (tag.startsWith('ko')) return 'cp949'
  return null
}

export function decodeZipName(raw: Buffer, encoding: ZipNameEncoding): string {
  return encoding.name === 'utf-8' ? raw.toString('utf8') : iconv.decode(raw, encoding.name)
}

function isUtf8(raw: Buffer): boolean {
  try {
    strictUtf8.decode(raw)
    return true
  } catch {
    return false
  }
}

function roundTrips(raw: Buffer, encoding: string): boolean {
  const text = iconv.decode(raw, encoding)
  return !text.includes('\ufffd') && iconv.encode(text, encoding).equals(raw)
}

/** Where each code page keeps the characters names mostly use, by lead and trail byte. */
const COMMON: Record<string, (lead: number, trail: number) => boolean> = {
  // GB2312's symbols (rows A1–A3) and hanzi (B0–F7); rows A4–AF hold kana, Greek, Cyrillic
  // and box drawing, which Chinese names hardly use but Big5 bytes decode into.
  gb18030: (lead, trail) => ((lead >= 0xa1 && lead <= 0xa3) || (lead >= 0xb0 && lead <= 0xf7)) && trail >= 0xa1 && trail <= 0xfe,
  big5: (lead, trail) => lead >= 0xa1 && lead <= 0xc6 && ((trail >= 0x40 && trail <= 0x7e) || (trail >= 0xa1 && trail <= 0xfe)),
  shift_jis: (lead) => (lead >= 0x81 && lead <= 0x9f) || (lead >= 0xe0 && lead <= 0xea),
  cp949: (lead, trail) => lead >= 0xa1 && lead <= 0xc8 && trail >= 0xa1 && trail <= 0xfe,
}

/** The share of the names' two-byte characters that `encoding` places in its common block. */
function commonShare(rawNames: Buffer[], encoding: string): number {
  let double = 0
  let common = 0
  for (const raw of rawNames) {
    for (const char of iconv.decode(raw, encoding)) {
      const bytes = iconv.encode(char, encoding)
      if (bytes.length !== 2) continue
      double++
      if (COMMON[encoding]!(bytes[0]!, bytes[1]!)) common++
    }
  }
  return double === 0 ? 0 : common / double
}
