import type { Locale } from '../locales.js'
import { enUS } from './en-US.js'
import type { MessageTable } from './types.js'

/**
 * Error texts that clients load one locale at a time (spec 7: translation message files load
 * lazily per locale), so a browser downloads only the language it shows. en-US, the fallback,
 * is always present. Servers read every table eagerly through `ERROR_MESSAGES` instead.
 */
const loaded = new Map<Locale, MessageTable>([['en-US', enUS]])

const importers: Record<Exclude<Locale, 'en-US'>, () => Promise<MessageTable>> = {
  id: () => import('./id.js').then((m) => m.id),
  ko: () => import('./ko.js').then((m) => m.ko),
  ms: () => import('./ms.js').then((m) => m.ms),
  'zh-CN': () => import('./zh-CN.js').then((m) => m.zhCN),
  'zh-TW': () => import('./zh-TW.js').then((m) => m.zhTW),
}

/** The table for `locale` if it has been loaded, else undefined. Does not load. */
export function loadedMessages(locale: Locale): MessageTable | undefined {
  return loaded.get(locale)
}

/** Loads (once) and returns the table for `locale`. */
export async function loadMessages(locale: Locale): Promise<MessageTable> {
  const ready = loaded.get(locale)
  if (ready) return ready
  const table = await importers[locale as Exclude<Locale, 'en-US'>]()
  loaded.set(locale, table)
  return table
}
