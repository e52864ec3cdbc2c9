import { isAnonymousSub, type Credentials, type UserInfo } from '@cumulus/sdk'
import { type ReactNode, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { useLocale, useT } from '../../i18n/use-locale'
import { REDIRECT_PARAM } from '../../middleware/auth'
import { LocaleLink, pagePath } from '../../navigation/locale-link'
import { getIdentityClient } from '../../session/identity-client'
import { refreshSession } from '../../session/session-store'
import { Button } from '../ui/button'
import { type Notice, NoticeArea, Badge, Section } from './section'
import { useAccountAction } from './use-account-action'
import { UserAvatar } from './user-avatar'

interface PublicProfile {
  sub: string
  name: string
  picture: string
}

/**
 * The public names of the other stored accounts (GET /v1/user/query, with the current account's
 * token). The SDK stores only credentials, so without this they show as their ids; a failure
 * leaves them that way.
 */
function useAccountProfiles(subs: string[]): Record<string, PublicProfile> {
  const locale = useLocale()
  const [profiles, setProfiles] = useState<Record<string, PublicProfile>>({})
  const key = subs.join(',')
  useEffect(() => {
    if (key === '') return
    let live = true
    getIdentityClient(locale)
      .request<{ users?: PublicProfile[] }>('GET', '/v1/user/query', { query: { ids: key }, auth: true })
      .then((reply) => {
        if (live && Array.isArray(reply?.users)) setProfiles(Object.fromEntries(reply.users.map((profile) => [profile.sub, profile])))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [key, locale])
  return profiles
}

function AccountEntry({ name, detail, seed, picture, badge, action, current }: { name: string; detail: string; seed: string; picture?: string; badge?: ReactNode; action?: ReactNode; current: boolean }) {
  return (
    <li className="flex items-center gap-3 py-3" data-testid="account-entry" data-sub={seed} data-current={current}>
      <UserAvatar name={name} seed={seed} picture={picture} size="md" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900 dark:text-slate-100">
          <span className="truncate">{name}</span>
          {badge}
        </p>
        <p className="truncate text-sm text-slate-600 dark:text-slate-400">{detail}</p>
      </div>
      {action}
    </li>
  )
}

/** Accounts remembered on this browser: switch between them, add one, sign out of the current one. */
export function AccountsSection({ user, accounts }: { user: UserInfo; accounts: Credentials[] }) {
  const { t } = useT()
  const locale = useLocale()
  const navigate = useNavigate()
  const switching = useAccountAction()
  const signingOut = useAccountAction()
  const [switchingTo, setSwitchingTo] = useState<string | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const others = accounts.filter((account) => account.sub !== user.userId)
  const profiles = useAccountProfiles(others.map((account) => account.sub))
  const loginPath = pagePath('account-login', locale)
  const homePath = pagePath('account-home', locale)

  const nameOf = (sub: string) => profiles[sub]?.name || (isAnonymousSub(sub) ? t('accountHome.accounts.guest') : t('accountHome.accounts.savedAccount'))

  async function switchTo(sub: string) {
    setNotice(null)
    setSwitchingTo(sub)
    const name = nameOf(sub)
    const result = await switching.run(async (client) => {
      client.switchAccount(sub)
      return refreshSession(client)
    })
    setSwitchingTo(null)
    if (!result.ok) {
      setNotice({ tone: 'error', message: result.message })
      return
    }
    // The other account's session may have ended meanwhile: it then needs signing in again.
    if (result.value.status !== 'signed-in') {
      await navigate(`${loginPath}?${REDIRECT_PARAM}=${encodeURIComponent(homePath)}`)
      return
    }
    setNotice({ tone: 'success', message: t('accountHome.accounts.switched', { name: result.value.user?.nickname || name }) })
  }

  async function signOut() {
    setNotice(null)
    const result = await signingOut.run(async (client) => {
      await client.signOut()
      await refreshSession(client)
    })
    if (result.ok) await navigate(loginPath, { replace: true })
    else setNotice({ tone: 'error', message: result.message })
  }

  const currentName = user.nickname || (isAnonymousSub(user.userId) ? t('accountHome.profile.guestName') : t('accountHome.profile.unnamed'))
  return (
    <Section title={t('accountHome.accounts.title')} description={t('accountHome.accounts.description')} testId="accounts-section">
      <ul aria-label={t('accountHome.accounts.listLabel')} className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="account-list">
        <AccountEntry
          name={currentName}
          detail={user.email || user.phoneNumber || user.userId}
          seed={user.userId}
          picture={user.avatar}
          badge={<Badge tone="success">{t('accountHome.accounts.current')}</Badge>}
          current
        />
        {others.map((account) => {
          const name = nameOf(account.sub)
          return (
            <AccountEntry
              key={account.sub}
              name={name}
              detail={account.sub}
              seed={account.sub}
              picture={profiles[account.sub]?.picture}
              current={false}
              action={
                <Button
                  variant="secondary"
                  aria-label={t('accountHome.accounts.switchTo', { name: profiles[account.sub]?.name || account.sub })}
                  loading={switchingTo === account.sub}
                  disabled={switchingTo !== null || signingOut.pending}
                  onClick={() => void switchTo(account.sub)}
                  data-sub={account.sub}
                >
                  {t('accountHome.accounts.switch')}
                </Button>
              }
            />
          )
        })}
      </ul>
      <NoticeArea notice={notice} />
      <div className="mt-4 flex flex-col gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
        <LocaleLink
          page="account-login"
          search={`?add=1&${REDIRECT_PARAM}=${encodeURIComponent(homePath)}`}
          className="inline-flex h-11 items-center justify-center gap-2 rounded-xl px-4 text-sm font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:text-brand-200 dark:ring-slate-700 dark:hover:bg-slate-800"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M12 5v14M5 12h14" />
          </svg>
          {t('accountHome.accounts.add')}
        </LocaleLink>
        <Button variant="secondary" onClick={() => void signOut()} loading={signingOut.pending} disabled={switchingTo !== null}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11" />
          </svg>
          {t('accountHome.accounts.signOut')}
        </Button>
      </div>
    </Section>
  )
}
