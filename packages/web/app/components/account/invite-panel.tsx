import { useEffect, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { pagePath } from '../../navigation/locale-link'
import { getIdentityClient } from '../../session/identity-client'
import { Button } from '../ui/button'
import { INVITE_PARAM } from './invite-param'


/**
 * The account's invite link (GET /vip/v1/activity/inviteCode): the sign-up page with the code,
 * which the sign-up form sends along. Both accounts get membership days (INVITE_REWARD_DAYS).
 */
export function InvitePanel({ userId }: { userId: string }) {
  const { t } = useT()
  const locale = useLocale()
  const [code, setCode] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    let live = true
    setCode(null)
    setFailed(false)
    getIdentityClient(locale)
      .inviteCode()
      .then((value) => live && setCode(value))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [locale, userId])

  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])

  if (failed) return null
  const link = code === null ? '' : `${window.location.origin}${pagePath('account-login', locale, {}, `?tab=sign-up&${INVITE_PARAM}=${code}`)}`

  async function copy() {
    try {
      await navigator.clipboard.writeText(link)
      setCopied(true)
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link stays selectable.
    }
  }

  return (
    <div data-testid="invite-panel" className="mt-5 space-y-2 rounded-xl bg-white/80 p-4 ring-1 ring-slate-200 ring-inset dark:bg-slate-950/40 dark:ring-slate-700">
      <h3 className="text-sm font-semibold">{t('accountHome.vip.inviteTitle')}</h3>
      <p className="text-sm opacity-90">{t('accountHome.vip.inviteText')}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label className="min-w-0 flex-1">
          <span className="sr-only">{t('accountHome.vip.inviteLinkLabel')}</span>
          <input
            readOnly
            value={link}
            data-testid="invite-link"
            onFocus={(event) => event.currentTarget.select()}
            className="h-11 w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 font-mono text-xs text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
        </label>
        <Button variant="secondary" onClick={() => void copy()} disabled={code === null}>
          {copied ? t('accountHome.vip.inviteCopied') : t('accountHome.vip.inviteCopy')}
        </Button>
      </div>
      {/* Screen readers hear the copy too: the button's new label alone is not announced. */}
      <p role="status" className="sr-only">
        {copied ? t('accountHome.vip.inviteCopied') : ''}
      </p>
    </div>
  )
}
