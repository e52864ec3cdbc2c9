import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { decodeZipName, detectZipNameEncoding } from './zip-names.js'

const encoded = (names: string[], encoding: string) => names.map((name) => iconv.encode(name, encoding))

describe('detectZipNameEncoding', () => {
  it.each([
    ['gbk', ['中文目录/', '中文目录/文件名称测试.txt'], 'gb18030'],
    ['big5', ['繁體中文/', '繁體中文/檔案.txt'], 'big5'],
    ['shift_jis', ['日本語フォルダ/', '日本語フォルダ/ファイル.txt'], 'shift_jis'],
    ['cp949', ['한국어폴더/', '한국어폴더/파일.txt'], 'cp949'],
    ['cp437', ['Résumé.txt', 'naïve/'], 'cp437'],
    ['utf-8', ['中文/', '日本語.txt', 'plain.txt'], 'utf-8'],
  ])('names written in %s are read as %s and decode back to the originals', (written, names, expected) => {
    const raw = encoded(names, written)
    const encoding = detectZipNameEncoding(raw)
    expect(encoding.name).toBe(expected)
    expect(raw.map((r) => decodeZipName(r, encoding))).toEqual(names)
  })

  it('plain ASCII is UTF-8', () => {
    expect(detectZipNameEncoding([Buffer.from('a.txt'), Buffer.from('dir/')]).name).toBe('utf-8')
  })
})
