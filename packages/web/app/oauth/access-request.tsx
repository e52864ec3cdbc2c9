import type { OAuthClientInfo, ScopeDescription } from '@cumulus/protocol'
import { isAnonymousSub, type UserInfo } from '@cumulus/sdk'
import { useId } from 'react'
import { textLinkClass } from '../components/auth/auth-shell'
import { UserAvatar } from '../components/account/user-avatar'
import { Logo } from '../components/logo'
import { Button } from '../components/ui/button'
import { useT } from '../i18n/use-locale'
import { REDIRECT_PARAM } from '../middleware/auth'
import { LocaleLink } from '../navigation/locale-link'

/**
 * The parts of a request for access to the account, shared by the consent page (/authorize) and
 * the device page (/device): the app, who is signed in, what the app may do, Allow and Deny.
 */

/**
 * The app asking, as a picture: its logo (the initials of its name when it has none) beside the
 * Cumulus mark. Decorative: the page's heading names the app.
 */
export function ClientIdentity({ client }: { client: OAuthClientInfo }) {
  return (
    <div className="flex items-center justify-center gap-3" aria-hidden="true" data-testid="oauth-client">
      <UserAvatar name={client.name} seed={client.client_id} picture={client.logo || undefined} size="md" />
      <svg viewBox="0 0 24 24" className="size-5 text-slate-400 dark:text-slate-500" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M7 7h11l-3-3M17 17H6l3 3" />
      </svg>
      <Logo className="size-12" />
    </div>
  )
}

/** The account the app would get, and a way to choose another (the login page brings the visitor back to `returnPath`). */
export function SignedInAccount({ user, returnPath }: { user: UserInfo; returnPath: string }) {
  const { t } = useT()
  const guest = isAnonymousSub(user.userId)
  const name = guest ? t('auth.login.guestName') : user.nickname || user.username || user.userId
  const detail = guest ? '' : [user.email, user.phoneNumber].find((value) => value && value !== name) ?? ''
  return (
    <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800/60" data-testid="oauth-account">
      <div className="flex items-center gap-3">
        <UserAvatar name={name} seed={user.userId} picture={user.avatar || undefined} size="sm" />
        <div className="min-w-0 flex-1">
          <p className="text-xs text-slate-600 dark:text-slate-300">{t('oauth.request.signedInAs')}</p>
          <p className="truncate font-medium text-slate-900 dark:text-white" data-testid="oauth-account-name">
            {name}
          </p>
          {detail ? <p className="truncate text-sm text-slate-600 dark:text-slate-300">{detail}</p> : null}
        </div>
      </div>
      <p className="mt-2 pl-13 text-sm">
        <LocaleLink page="account-login" search={`?add=1&${REDIRECT_PARAM}=${encodeURIComponent(returnPath)}`} className={textLinkClass}>
          {t('oauth.request.useAnother')}
        </LocaleLink>
      </p>
    </div>
  )
}

/** What the app may do once allowed: the server's descriptions of the scopes, in the page's language. */
export function ScopeList({ client, scopes }: { client: OAuthClientInfo; scopes: ScopeDescription[] }) {
  const { t } = useT()
  const headingId = useId()
  return (
    <div>
      <h2 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-white">
        {t('oauth.request.scopesLabel', { client: client.name })}
      </h2>
      <ul aria-labelledby={headingId} className="mt-2 space-y-2" data-testid="oauth-scopes">
        {scopes.map((scope) => (
          <li key={scope.id} className="flex gap-2.5 text-sm text-slate-700 dark:text-slate-200" data-scope={scope.id}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
              <path d="m4.5 10.5 3.5 3.5 7.5-8" />
            </svg>
            <span className="min-w-0 break-words">{scope.description}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** Allow and Deny: side by side, Allow last (the primary action); stacked with Allow on top on a phone. */
export function DecisionButtons({ pending, disabled, onAllow, onDeny }: { pending: 'allow' | 'deny' | null; disabled?: boolean; onAllow(): void; onDeny(): void }) {
  const { t } = useT()
  const busy = pending !== null || disabled
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row">
      <Button variant="secondary" className="sm:flex-1" loading={pending === 'deny'} disabled={busy} onClick={onDeny}>
        {t('oauth.request.deny')}
      </Button>
      <Button className="sm:flex-1" loading={pending === 'allow'} disabled={busy} onClick={onAllow}>
        {t('oauth.request.allow')}
      </Button>
    </div>
  )
}
