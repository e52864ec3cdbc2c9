import type { AuthorizeInfoReply } from '@cumulus/protocol'
import type { IdentityClient, UserInfo } from '@cumulus/sdk'
import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'react-router'
import { AuthShell, primaryLinkClass } from '../components/auth/auth-shell'
import { PageTitle } from '../components/page-title'
import { Alert } from '../components/ui/alert'
import { LoadingBlock } from '../components/ui/spinner'
import { useErrorText } from '../drive/use-error-text'
import { useLocale, useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'
import { getIdentityClient } from '../session/identity-client'
import { ClientIdentity, DecisionButtons, ScopeList, SignedInAccount } from './access-request'
import { type AuthorizeRequest, deniedRedirectUri, errorRedirect, readAuthorizeRequest } from './authorize-request'
import { destinationOf, leaveTo } from './leave-to'

type ConsentState =
  | { kind: 'checking' }
  /** The request cannot go on, and no checked redirect URI is known to report it to: shown here, never redirected. */
  | { kind: 'failed'; error: unknown }
  | { kind: 'asking'; info: AuthorizeInfoReply }
  | { kind: 'leaving'; client: string }

/** Whatever `leaveTo` refuses (a scheme that runs code) is as unusable as a refused request. */
const UNUSABLE_REDIRECT = { error: 'invalid_request', error_code: 4121 }

/** GET /v1/user/authorize/info needs no session (it shows nothing of the user); the SDK's `authorizeInfo` sends one. */
const AUTHORIZE_INFO_PATH = '/v1/user/authorize/info'

/** The server's issuer (its discovery document), for error responses built here; the API origin when it cannot be read. */
async function issuerOf(client: IdentityClient): Promise<string> {
  const discovery = await client.request<{ issuer?: unknown }>('GET', '/.well-known/openid-configuration').catch(() => null)
  return typeof discovery?.issuer === 'string' && discovery.issuer !== '' ? discovery.issuer : client.origin
}

function leave(url: string, client: string): ConsentState {
  return leaveTo(url) ? { kind: 'leaving', client } : { kind: 'failed', error: UNUSABLE_REDIRECT }
}

/**
 * Decides what happens before the user is asked: the request checked by the server (its refusal
 * is the page's error), then, unless `prompt=consent`, an earlier grant of the same scopes
 * approved at once. With `prompt=none` no page may be shown, so a needed sign-in or consent goes
 * back to the app as `login_required` or `consent_required`. Otherwise the user is asked.
 */
async function openRequest(client: IdentityClient, request: AuthorizeRequest, signedIn: boolean): Promise<ConsentState> {
  const { params } = request
  if (!signedIn) {
    const info = await client.request<AuthorizeInfoReply>('GET', AUTHORIZE_INFO_PATH, { query: { ...params, locale: client.locale } })
    return leave(errorRedirect(info.redirect_uri, 'login_required', params.state, await issuerOf(client)), info.client.name)
  }
  const info = await client.authorizeInfo(params)
  if (!request.prompt.includes('consent')) {
    const scope = params.scope ?? info.scopes.map((s) => s.id).join(' ')
    // A failed check only means asking again.
    const granted = await client.authorizeDetect(params.client_id, scope).catch(() => false)
    if (granted) return leave((await client.authorize(params, true)).redirect_uri, info.client.name)
  }
  if (request.prompt.includes('none')) return leave(errorRedirect(info.redirect_uri, 'consent_required', params.state, await issuerOf(client)), info.client.name)
  return { kind: 'asking', info }
}

/**
 * The consent page (/authorize): another app asks for access to the signed-in account through
 * the OAuth authorization-code flow. Shows the app, the account, what the app may do, and Allow
 * and Deny; either choice sends the browser back to the app's checked redirect URI (with a code,
 * or with `error=access_denied`). `user` is null only for `prompt=none` without a session (the
 * route's loader lets that through), which goes back to the app with `login_required`.
 */
export function ConsentPage({ user }: { user: UserInfo | null }) {
  const { t } = useT()
  const locale = useLocale()
  const location = useLocation()
  const [request] = useState(() => readAuthorizeRequest(new URLSearchParams(location.search)))
  const [state, setState] = useState<ConsentState>({ kind: 'checking' })
  const [pending, setPending] = useState<'allow' | 'deny' | null>(null)
  const [decisionError, setDecisionError] = useState<unknown>(null)
  const errorText = useErrorText(state.kind === 'failed' ? state.error : null)
  const decisionErrorText = useErrorText(decisionError)
  const opened = useRef(false)

  useEffect(() => {
    // Once per page: an earlier grant approves at once, and a code must not be asked for twice.
    if (opened.current) return
    opened.current = true
    openRequest(getIdentityClient(locale), request, user !== null).then(setState, (error: unknown) => setState({ kind: 'failed', error }))
    // The session is read once: signing in elsewhere meanwhile does not restart the request.
  }, [locale, request])

  async function decide(consent: boolean, info: AuthorizeInfoReply) {
    setPending(consent ? 'allow' : 'deny')
    setDecisionError(null)
    let destination: string | null = null
    try {
      destination = (await getIdentityClient(locale).authorize(request.params, consent)).redirect_uri
    } catch (error) {
      // A denial is refused with `access_denied`, whose metadata names where to send the browser.
      destination = consent ? null : deniedRedirectUri(error)
      if (destination === null) {
        setDecisionError(error)
        setPending(null)
        return
      }
    }
    const next = leave(destination, info.client.name)
    if (next.kind === 'leaving') setState(next)
    else {
      setDecisionError(UNUSABLE_REDIRECT)
      setPending(null)
    }
  }

  if (state.kind === 'checking' || state.kind === 'leaving') {
    return (
      <>
        <PageTitle title={t('oauth.consent.title')} />
        <AuthShell heading={t('oauth.consent.title')}>
          <LoadingBlock label={state.kind === 'checking' ? t('oauth.consent.checking') : t('oauth.consent.returning', { client: state.client })} />
        </AuthShell>
      </>
    )
  }

  if (state.kind === 'failed') {
    return (
      <>
        <PageTitle title={t('oauth.consent.failedHeading')} />
        <AuthShell heading={t('oauth.consent.failedHeading')} subtitle={t('oauth.consent.failedHint')}>
          <div className="space-y-6" data-testid="consent-failed">
            {errorText ? <Alert tone="error">{errorText}</Alert> : null}
            <LocaleLink page="index" className={`${primaryLinkClass} w-full`}>
              {t('oauth.consent.home')}
            </LocaleLink>
          </div>
        </AuthShell>
      </>
    )
  }

  const { info } = state
  // Not reached without a user (openRequest never asks then); kept for the type.
  if (!user) return null
  const heading = t('oauth.request.wantsAccess', { client: info.client.name })
  return (
    <>
      <PageTitle title={t('oauth.consent.title')} />
      <AuthShell heading={heading}>
        <div className="space-y-6" data-testid="consent">
          <ClientIdentity client={info.client} />
          <SignedInAccount user={user} returnPath={`${location.pathname}${location.search}`} />
          <ScopeList client={info.client} scopes={info.scopes} />
          <div className="space-y-1 text-xs text-slate-600 dark:text-slate-400">
            <p data-testid="consent-destination">{t('oauth.consent.sentTo', { host: destinationOf(info.redirect_uri) })}</p>
            <p>{t('oauth.request.trust')}</p>
          </div>
          {decisionErrorText ? <Alert tone="error">{decisionErrorText}</Alert> : null}
          <DecisionButtons pending={pending} onAllow={() => void decide(true, info)} onDeny={() => void decide(false, info)} />
        </div>
      </AuthShell>
    </>
  )
}
