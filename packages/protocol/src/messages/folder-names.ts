import type { Locale } from '../locales.js'

/**
 * The name the server gives a user's offline-download folder (`folder_type: "DOWNLOAD"`) when it
 * creates it, in the language of that request (drive.md: "name localized at creation"). The
 * folder is found afterwards by its folder_type, so a rename or a change of language later keeps
 * using it. Each is the name the platform's own file manager uses for downloads in that language.
 */
export const DOWNLOAD_FOLDER_NAMES: Readonly<Record<Locale, string>> = Object.freeze({
  'en-US': 'Downloads',
  id: 'Unduhan',
  ko: '다운로드',
  ms: 'Muat Turun',
  'zh-CN': '下载',
  'zh-TW': '下載',
})
