import { type Locale } from '../locales.js'
import { enUS } from './en-US.js'
import type { MessageTable } from './types.js'

export type { MessageTable, SpecialMessages } from './types.js'

/**
 * Error texts by locale. The other locales are filled in by their own modules;
 * a missing table falls back to en-US (spec 9: translation fallback locale en-US).
 */
export const ERROR_MESSAGES: Readonly<Record<Locale, MessageTable>> = {
  'en-US': enUS,
  id: enUS,
  ko: enUS,
  ms: enUS,
  'zh-CN': enUS,
  'zh-TW': enUS,
}
