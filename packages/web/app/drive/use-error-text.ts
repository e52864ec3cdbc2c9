import { useEffect, useState } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { userErrorMessage } from '../i18n/user-error'

/**
 * The localized text of an error (the SDK's `errorMessage`, in the page's language), or null
 * while there is no error. The locale's error table may have to load first, hence the state.
 */
export function useErrorText(error: unknown): string | null {
  const locale = useLocale()
  const { t } = useT()
  const [text, setText] = useState<{ error: unknown; text: string } | null>(null)
  useEffect(() => {
    if (error === null || error === undefined) return
    let live = true
    void userErrorMessage(error, locale, t).then((message) => {
      if (live) setText({ error, text: message })
    })
    return () => {
      live = false
    }
  }, [error, locale, t])
  if (error === null || error === undefined) return null
  return text?.error === error ? text.text : null
}

/** The same as a function, for event handlers (toasts). */
export function useDescribeError(): (error: unknown) => Promise<string> {
  const locale = useLocale()
  const { t } = useT()
  return (error) => userErrorMessage(error, locale, t)
}
