import type { Locale } from '@cumulus/protocol'

/** Each language named in itself, as language pickers do (a reader finds their own language). */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  'en-US': 'English',
  id: 'Bahasa Indonesia',
  ko: '한국어',
  ms: 'Bahasa Melayu',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
}
