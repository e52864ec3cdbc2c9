import { type Locale } from '../locales.js'
import { enUS } from './en-US.js'
import { id } from './id.js'
import { ko } from './ko.js'
import { ms } from './ms.js'
import type { MessageTable } from './types.js'
import { zhCN } from './zh-CN.js'
import { zhTW } from './zh-TW.js'

export type { MessageTable, SpecialMessages } from './types.js'
export { DOWNLOAD_FOLDER_NAMES } from './folder-names.js'
export { SHARE_TEXTS, type ShareTexts } from './shares.js'

/**
 * Error texts by locale, one complete table per shipped locale
 * (spec 9: translation fallback locale en-US, used for locales outside the six).
 */
export const ERROR_MESSAGES: Readonly<Record<Locale, MessageTable>> = {
  'en-US': enUS,
  id,
  ko,
  ms,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
}
