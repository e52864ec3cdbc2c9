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
/** chardet's names for the legacy code pages zips made on Chinese, Japanese and Korean systems use. */
const EAST_ASIAN: Record<string, ZipNameEncoding> = {
  GB18030: { name: 'gb18030', codePage: 936 },
  Big5: { name: 'big5', codePage: 950 },
  Shift_JIS: { name: 'shift_jis', codePage: 932 },
  'EUC-KR': { name: 'cp949', codePage: 949 },
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Picks one encoding for all of an archive's unflagged names, judged together (one short name
 * says little). Plain ASCII and valid UTF-8 (many tools write UTF-8 without the flag) come
 * first. Then the most likely East Asian code page that chardet names and that decodes every
 * name without loss. Else CP437, which the zip specification names.
 */
export function detectZipNameEncoding(rawNames: Buffer[]): ZipNameEncoding {
  if (rawNames.every(isUtf8)) return UTF8
  const all = Buffer.concat(rawNames)
  for (const guess of chardet.analyse(all)) {
    const encoding = EAST_ASIAN[guess.name]
    if (encoding && guess.confidence >= 10 && rawNames.every((raw) => roundTrips(raw, encoding.name))) return encoding
  }
  return CP437
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
