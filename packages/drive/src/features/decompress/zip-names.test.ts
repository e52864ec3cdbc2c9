import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { type ZipNameEncoding, codePageOfLanguage, decodeZipName, detectZipNameEncoding } from './zip-names.js'

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

  const realistic: [string, string, string[]][] = [
    ['gbk', 'gb18030', ['新建文件夹/', '照片/', '工作报告.docx', '电影/', '音乐/歌曲.mp3', '中国']],
    ['big5', 'big5', ['新增資料夾/', '相片/', '工作報告.docx', '電影/', '音樂/歌曲.mp3', '臺灣']],
    ['shift_jis', 'shift_jis', ['新しいフォルダー/', '写真/', '報告書.docx', '映画/', '音楽/曲.mp3']],
    ['cp949', 'cp949', ['새 폴더/', '사진/', '보고서.docx', '영화/', '음악/노래.mp3']],
  ]
  it.each(realistic)('each single everyday name written in %s is read as %s by a user of that language', (written, expected, names) => {
    for (const name of names) {
      const encoding = detectZipNameEncoding(encoded([name], written), expected as ZipNameEncoding['name'])
      expect([name, encoding.name]).toEqual([name, expected])
    }
  })

  it.each(realistic)('a folder of everyday names written in %s is read as %s whatever the user’s language', (written, expected, names) => {
    for (const preferred of [null, 'gb18030', 'big5', 'shift_jis', 'cp949'] as const) {
      expect([preferred, detectZipNameEncoding(encoded(names, written), preferred).name]).toEqual([preferred, expected])
    }
  })

  it('the user’s language names its code page', () => {
    expect(['zh-CN', 'zh-TW', 'ko', 'ja-JP', 'en-US', 'id', 'ms'].map(codePageOfLanguage)).toEqual(['gb18030', 'big5', 'cp949', 'shift_jis', null, null, null])
  })

  it('plain ASCII is UTF-8', () => {
    expect(detectZipNameEncoding([Buffer.from('a.txt'), Buffer.from('dir/')]).name).toBe('utf-8')
  })
})
