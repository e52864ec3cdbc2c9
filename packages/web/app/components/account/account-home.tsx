import { isAnonymousSub } from '@cumulus/sdk'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { useLocale, useT } from '../../i18n/use-locale'
import { REDIRECT_PARAM } from '../../middleware/auth'
import { LocaleLink, pagePath } from '../../navigation/locale-link'
import { useScrollToHash } from '../../navigation/use-scroll-to-hash'
import { useSession } from '../../session/use-session'
import { PageTitle } from '../page-title'
import { LoadingBlock } from '../ui/spinner'
import { AccountsSection } from './accounts-section'
import { ConnectedAppsSection } from './connected-apps-section'
import { DangerZone } from './danger-zone'
import { MembershipSection } from './membership-section'
import { ProfileSection } from './profile-section'
import { Badge } from './section'
import { SecuritySection } from './security-section'
import { SignInMethodsSection } from './sign-in-methods-section'
import { SignedInDevicesSection } from './signed-in-devices-section'
import { UserAvatar } from './user-avatar'

/** Opens the login page on account creation (its `LOGIN_TAB_PARAM`; not imported, to keep the login route out of this chunk). */
const SIGN_UP_SEARCH = '?tab=sign-up'

/** The account page (/account/home): profile, membership, security, sign-in methods, connected apps, where you're signed in, accounts on this browser. */
export function AccountHome() {
  const { t } = useT()
  const locale = useLocale()
  const navigate = useNavigate()
  const session = useSession()
  const user = session.user
  // Asks the profile to open its e-mail form (the guest banner's button); a count, so each press asks again.
  const [bindRequest, setBindRequest] = useState(0)
  // A link to a section (`#signed-in-devices`, the return from linking a provider) arrives before the sections exist.
  useScrollToHash(session.status === 'signed-in' && !!user)

  // Signed out meanwhile (here or in another tab): back to the login page, which returns here.
  useEffect(() => {
    if (session.status !== 'signed-out') return
    const home = pagePath('account-home', locale)
    void navigate(pagePath('account-login', locale, {}, `?${REDIRECT_PARAM}=${encodeURIComponent(home)}`), { replace: true })
  }, [session.status, locale, navigate])

  if (session.status !== 'signed-in' || !user) {
    return (
      <>
        <PageTitle title={t('accountHome.title')} />
        <LoadingBlock label={t('common.loading')} />
      </>
    )
  }

  // A guest account that has bound an address is a registered account, in place (same id, same files).
  const anonymous = isAnonymousSub(user.userId) && !user.email && !user.phoneNumber
  const displayName = user.nickname || (anonymous ? t('accountHome.profile.guestName') : t('accountHome.profile.unnamed'))
  return (
    <div className="bg-slate-50 pb-16 dark:bg-slate-950">
      <PageTitle title={t('accountHome.title')} description={t('accountHome.subtitle')} />
      <div className="mx-auto max-w-3xl px-4 pt-8 sm:px-6 sm:pt-12">
        <header className="flex flex-col items-center text-center">
          <UserAvatar name={displayName} seed={user.userId} picture={user.avatar} size="lg" />
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">{t('accountHome.welcome', { name: displayName })}</h1>
          <p className="mt-1 max-w-full break-words text-slate-600 dark:text-slate-400">{user.email || user.phoneNumber || t('accountHome.subtitle')}</p>
          {user.isVip ? (
            <div className="mt-3">
              <Badge tone="gold">{t('accountHome.vip.badge')}</Badge>
            </div>
          ) : null}
        </header>

        {anonymous ? (
          <div role="note" data-testid="anonymous-notice" className="mt-8 flex flex-col gap-4 rounded-2xl border border-brand-200 bg-brand-50 p-5 text-brand-900 sm:flex-row sm:items-center dark:border-brand-800 dark:bg-brand-900/40 dark:text-brand-50">
            <div className="flex-1">
              <p className="font-semibold">{t('accountHome.anonymous.title')}</p>
              <p className="mt-1 text-sm">{t('accountHome.anonymous.text')}</p>
            </div>
            <div className="flex shrink-0 flex-col items-stretch gap-2 sm:items-end">
              {/* Binding an address keeps this account and its files; a new account would start empty. */}
              <button
                type="button"
                onClick={() => setBindRequest((n) => n + 1)}
                className="inline-flex h-11 items-center justify-center rounded-xl bg-brand-600 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
              >
                {t('accountHome.anonymous.cta')}
              </button>
              <LocaleLink page="account-login" search={SIGN_UP_SEARCH} className="text-center text-sm font-medium underline underline-offset-2 hover:no-underline">
                {t('accountHome.anonymous.separate')}
              </LocaleLink>
            </div>
          </div>
        ) : null}

        <div className="mt-8 space-y-6">
          {/* Keyed by account: after a switch, no open form or message of the previous account remains. */}
          <ProfileSection key={`profile-${user.userId}`} user={user} anonymous={anonymous} bindRequest={bindRequest} />
          <MembershipSection key={`membership-${user.userId}`} user={user} />
          {anonymous ? null : <SecuritySection key={`security-${user.userId}`} user={user} />}
          {anonymous ? null : <SignInMethodsSection key={`sign-in-methods-${user.userId}`} user={user} />}
          {anonymous ? null : <ConnectedAppsSection key={`connected-apps-${user.userId}`} />}
          {/* Hidden for a guest, as the other security sections: it lives on this device only, so there is nowhere else to sign out of. */}
          {anonymous ? null : <SignedInDevicesSection key={`signed-in-devices-${user.userId}`} />}
          <AccountsSection user={user} accounts={session.accounts} />
          <DangerZone />
        </div>
      </div>
    </div>
  )
}
