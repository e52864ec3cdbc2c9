import type { DeviceInfoReply } from '@cumulus/protocol'
import type { UserInfo } from '@cumulus/sdk'
import { useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { AuthForm } from '../components/auth/auth-form'
import { AuthShell } from '../components/auth/auth-shell'
import { useFormAttempt } from '../components/auth/use-form-attempt'
import { useIdentityCall } from '../components/auth/use-identity-call'
import { PageTitle } from '../components/page-title'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { LoadingBlock } from '../components/ui/spinner'
import { TextField } from '../components/ui/text-field'
import { useT } from '../i18n/use-locale'
import { ClientIdentity, DecisionButtons, ScopeList, SignedInAccount } from './access-request'
import { checkUserCode, normalizeUserCode } from './user-code'

/** `?user_code=` (RFC 8628 3.3.1, the `verification_uri_complete` a device may show as a QR code). */
export const USER_CODE_PARAM = 'user_code'

type DeviceStep = { kind: 'enter' } | { kind: 'review'; info: DeviceInfoReply } | { kind: 'done'; approved: boolean }

/**
 * The device page (/device, RFC 8628 3.3): the user types the code their TV or console shows (or
 * arrives with it in `?user_code=`), sees which app asks and for what, and allows or denies it.
 * Each step moves the focus to its heading, so a screen reader announces where the user is.
 */
export function DevicePage({ user }: { user: UserInfo }) {
  const { t } = useT()
  const location = useLocation()
  const navigate = useNavigate()
  const fromLink = new URLSearchParams(location.search).get(USER_CODE_PARAM) ?? ''
  const [typed, setTyped] = useState(fromLink)
  const [step, setStep] = useState<DeviceStep>({ kind: 'enter' })
  const lookup = useIdentityCall<'lookup'>()
  const decision = useIdentityCall<'allow' | 'deny'>()
  const { formRef, attempted, attempt } = useFormAttempt()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const stepCount = useRef(0)
  const lookedUpLink = useRef(false)
  // Looking up the code of the link: a loading state, not a form that flashes before the review.
  const [linkPending, setLinkPending] = useState(() => checkUserCode(fromLink) === null)

  const codeProblem = checkUserCode(typed)

  async function lookUp(): Promise<void> {
    const valid = codeProblem === null
    attempt(valid)
    if (!valid) return
    const code = normalizeUserCode(typed)!
    const result = await lookup.call('lookup', (client) => client.deviceInfo(code))
    if (result.ok) moveTo({ kind: 'review', info: result.value })
  }

  function moveTo(next: DeviceStep) {
    stepCount.current += 1
    setStep(next)
  }

  // A code from the link is looked up at once; the review step still shows it to compare.
  useEffect(() => {
    if (lookedUpLink.current || checkUserCode(fromLink) !== null) return
    lookedUpLink.current = true
    void lookUp().finally(() => setLinkPending(false))
    // Once, for the code the page was opened with.
  }, [])

  useEffect(() => {
    if (stepCount.current > 0) headingRef.current?.focus()
  }, [step])

  async function decide(consent: boolean, code: string) {
    const result = await decision.call(consent ? 'allow' : 'deny', (client) => client.authorizeDevice(code, consent))
    if (result.ok) moveTo({ kind: 'done', approved: consent })
  }

  function startOver() {
    setLinkPending(false)
    setTyped('')
    lookup.setError(null)
    decision.setError(null)
    moveTo({ kind: 'enter' })
    // The code of the link is spent: a reload must not look it up again.
    if (fromLink !== '') void navigate({ pathname: location.pathname, search: '' }, { replace: true })
  }

  if (step.kind === 'done') {
    const heading = step.approved ? t('oauth.device.approvedHeading') : t('oauth.device.deniedHeading')
    return (
      <>
        <PageTitle title={heading} />
        <AuthShell heading={heading} headingRef={headingRef}>
          <div className="space-y-6 text-center" data-testid="device-done" data-approved={step.approved}>
            <span aria-hidden="true" className={`mx-auto flex size-14 items-center justify-center rounded-full ${step.approved ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-900/50 dark:text-emerald-300' : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'}`}>
              <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
                {step.approved ? <path d="m5 12.5 4.5 4.5L19 7.5" /> : <path d="M7 7l10 10M17 7 7 17" />}
              </svg>
            </span>
            <p className="text-slate-700 dark:text-slate-200">{step.approved ? t('oauth.device.approved') : t('oauth.device.denied')}</p>
            <Button variant="secondary" block onClick={startOver}>
              {t('oauth.device.again')}
            </Button>
          </div>
        </AuthShell>
      </>
    )
  }

  if (step.kind === 'review') {
    const { info } = step
    return (
      <>
        <PageTitle title={t('oauth.device.title')} />
        <AuthShell heading={t('oauth.request.wantsAccess', { client: info.client.name })} headingRef={headingRef}>
          <div className="space-y-6" data-testid="device-review">
            <ClientIdentity client={info.client} />
            <div className="rounded-xl border border-slate-200 p-4 text-center dark:border-slate-700">
              <p className="text-sm text-slate-600 dark:text-slate-300">{t('oauth.device.matchCode')}</p>
              <p className="mt-1 font-mono text-2xl font-semibold tracking-[0.2em] text-slate-900 dark:text-white" data-testid="device-user-code">
                {info.user_code}
              </p>
            </div>
            <SignedInAccount user={user} returnPath={`${location.pathname}?${USER_CODE_PARAM}=${encodeURIComponent(info.user_code)}`} />
            <ScopeList client={info.client} scopes={info.scopes} />
            <p className="text-xs text-slate-600 dark:text-slate-400">{t('oauth.request.trust')}</p>
            {decision.error ? <Alert tone="error">{decision.error}</Alert> : null}
            <DecisionButtons pending={decision.pending} onAllow={() => void decide(true, info.user_code)} onDeny={() => void decide(false, info.user_code)} />
            <Button variant="ghost" block onClick={startOver} disabled={decision.pending !== null}>
              {t('oauth.device.otherCode')}
            </Button>
          </div>
        </AuthShell>
      </>
    )
  }

  if (linkPending) {
    return (
      <>
        <PageTitle title={t('oauth.device.title')} />
        <AuthShell heading={t('oauth.device.heading')}>
          <LoadingBlock label={t('oauth.device.checking')} />
        </AuthShell>
      </>
    )
  }

  return (
    <>
      <PageTitle title={t('oauth.device.title')} />
      <AuthShell heading={t('oauth.device.heading')} subtitle={t('oauth.device.subtitle')} headingRef={headingRef}>
        <AuthForm formRef={formRef} onSubmit={lookUp} error={lookup.error} submitLabel={t('oauth.device.continue')} loading={lookup.pending === 'lookup'}>
          <TextField
            label={t('oauth.device.codeLabel')}
            name="user_code"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            // Shown as capitals whatever is typed; the value is normalized when sent.
            className="[&_input]:font-mono [&_input]:uppercase [&_input]:tracking-widest"
            placeholder="XXXX-XXXX"
            error={attempted && codeProblem ? t(codeProblem) : null}
            hint={t('oauth.device.codeHint')}
          />
        </AuthForm>
      </AuthShell>
    </>
  )
}
