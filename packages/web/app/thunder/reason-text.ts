import { type Locale, RESOURCE_STATUS_OK, loadMessages, loadedMessages } from '@cumulus/protocol'
import { useEffect, useState } from 'react'
import { useLocale } from '../i18n/use-locale'

/**
 * Offline downloads carry error reasons as plain strings (a task's `message`, a previewed
 * resource's `meta.status`). This reads the catalogue's text for one in the page's language,
 * from the error table the SDK loads per locale; null for a reason the catalogue does not know
 * (the caller words that itself) and for "OK".
 */
export function useReasonText(): (reason: string) => string | null {
  const locale = useLocale()
  const [, setLoaded] = useState<Locale | null>(null)
  useEffect(() => {
    let live = true
    void loadMessages(locale)
      .then(() => live && setLoaded(locale))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [locale])
  const table = (loadedMessages(locale) ?? loadedMessages('en-US')) as unknown as Record<string, unknown> | undefined
  return (reason) => {
    if (reason === '' || reason === RESOURCE_STATUS_OK || table === undefined || !Object.hasOwn(table, reason)) return null
    const text = table[reason]
    return typeof text === 'string' ? text : null
  }
}

