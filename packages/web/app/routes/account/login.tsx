import { Suspense, useState } from 'react'
import { useSearchParams } from 'react-router'
import { AuthShell } from '../../components/auth/auth-shell'
import { segmentedListClass, segmentedTriggerClass, underlineListClass, underlineTriggerClass } from '../../components/auth/tab-styles'
import { DeferredTabs } from '../../components/lazy/deferred-tabs'
import { lazyFrom, onDemand } from '../../components/lazy/on-demand'
import { PageTitle } from '../../components/page-title'
import { LoadingBlock } from '../../components/ui/spinner'
import { useLocale, useT } from '../../i18n/use-locale'
import { ProviderSignIn } from '../../oauth/provider-buttons'
import { useSession } from '../../session/use-session'
import { signInReturnPath, useFinishSignIn } from './login.finish'
import { GuestSignIn } from './login.guest'
import { PasswordSignInForm } from './login.password-form'
import { SignedInPanel } from './login.signed-in'

/** `?tab=sign-up` opens the page on account creation (links from elsewhere: "Create an account"). */
export const LOGIN_TAB_PARAM = 'tab'
/** `?add=1` opens the forms even for a signed-in visitor ("Add another account"). */
export const LOGIN_ADD_ACCOUNT_PARAM = 'add'
type LoginTab = 'sign-in' | 'sign-up'

// The forms of the tabs that are not open by default come with their tab (the sign-up form is
// also rendered by the server for `?tab=sign-up`).
const signUpForm = onDemand(() => import('./login.sign-up-form'))
const codeForm = onDemand(() => import('./login.code-form'))
const SignUpForm = lazyFrom(signUpForm, (module) => module.SignUpForm)
const CodeSignInForm = lazyFrom(codeForm, (module) => module.CodeSignInForm)

const PANEL_CLASS = 'mt-6 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-500'
const METHOD_PANEL_CLASS = 'mt-5 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-500'

function PanelLoading() {
  const { t } = useT()
  return <LoadingBlock label={t('common.loading')} />
}

/** `?method=code` opens "Sign in" on the code form (kept in the address, so a reload keeps it). */
const LOGIN_METHOD_PARAM = 'method'

/**
 * The open tab in the address, replacing the entry (`value` null: the default, no parameter), so
 * that a reload, e.g. while waiting for a code, comes back to the same form.
 */
function useTabInAddress(param: string) {
  const [, setSearchParams] = useSearchParams()
  return (value: string | null) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params)
        if (value === null) next.delete(param)
        else next.set(param, value)
        return next
      },
      { replace: true, preventScrollReset: true },
    )
}

/** "Sign in": with a password (open at first) or with a code. */
function SignInMethods({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const { t } = useT()
  const [searchParams] = useSearchParams()
  const [method, setMethod] = useState(searchParams.get(LOGIN_METHOD_PARAM) === 'code' ? 'code' : 'password')
  const keepMethod = useTabInAddress(LOGIN_METHOD_PARAM)
  return (
    <DeferredTabs
      value={method}
      onValueChange={(value) => {
        setMethod(value)
        keepMethod(value === 'code' ? 'code' : null)
      }}
      label={t('auth.login.methodLabel')}
      listClassName={underlineListClass}
      triggerClassName={underlineTriggerClass}
      panelClassName={METHOD_PANEL_CLASS}
      tabs={[
        { value: 'password', label: t('auth.login.methodPassword'), panel: <PasswordSignInForm onSignedIn={onSignedIn} /> },
        {
          value: 'code',
          label: t('auth.login.methodCode'),
          preload: codeForm.load,
          panel: (
            <Suspense fallback={<PanelLoading />}>
              <CodeSignInForm onSignedIn={onSignedIn} />
            </Suspense>
          ),
        },
      ]}
    />
  )
}

/**
 * /account/login: sign in (password, code or an identity provider), create an account, or try as
 * a guest. A visitor
 * already signed in is shown who they are first; signing in with another account keeps the
 * current one stored (the SDK adds accounts).
 */
export default function LoginPage() {
  const { t } = useT()
  const locale = useLocale()
  const session = useSession()
  const [searchParams] = useSearchParams()
  const [tab, setTab] = useState<LoginTab>(searchParams.get(LOGIN_TAB_PARAM) === 'sign-up' ? 'sign-up' : 'sign-in')
  // Arriving to add an account or to create one (a guest upgrading) skips the signed-in panel.
  const [addingAccount, setAddingAccount] = useState(searchParams.get(LOGIN_ADD_ACCOUNT_PARAM) === '1' || searchParams.get(LOGIN_TAB_PARAM) === 'sign-up')
  const { finishing, finish } = useFinishSignIn()
  const keepTab = useTabInAddress(LOGIN_TAB_PARAM)

  if (session.status === 'signed-in' && session.user && !addingAccount && !finishing) {
    return (
      <>
        <PageTitle title={t('auth.login.title')} description={t('auth.login.description')} />
        <AuthShell heading={t('auth.login.signedInHeading')}>
          <SignedInPanel user={session.user} onUseAnotherAccount={() => setAddingAccount(true)} />
        </AuthShell>
      </>
    )
  }

  const signUp = tab === 'sign-up'
  // "Add another account" only when there is one signed in: ?tab=sign-up alone (a reload of the
  // sign-up form, a link) is someone creating their first.
  const adding = addingAccount && session.status === 'signed-in'
  return (
    <>
      <PageTitle title={signUp ? t('auth.signUp.title') : t('auth.login.title')} description={t('auth.login.description')} />
      <AuthShell
        heading={adding ? t('auth.login.anotherHeading') : signUp ? t('auth.signUp.heading') : t('auth.login.heading')}
        subtitle={adding ? t('auth.login.accountsKept') : signUp ? t('auth.signUp.subtitle') : t('auth.login.subtitle')}
      >
        <DeferredTabs
          value={tab}
          onValueChange={(value) => {
            setTab(value as LoginTab)
            keepTab(value === 'sign-up' ? 'sign-up' : null)
          }}
          label={t('auth.login.tabsLabel')}
          listClassName={segmentedListClass}
          triggerClassName={segmentedTriggerClass}
          panelClassName={PANEL_CLASS}
          tabs={[
            { value: 'sign-in', label: t('auth.login.tabSignIn'), panel: <SignInMethods onSignedIn={() => finish()} /> },
            {
              value: 'sign-up',
              label: t('auth.login.tabSignUp'),
              preload: signUpForm.load,
              panel: (
                <Suspense fallback={<PanelLoading />}>
                  <SignUpForm onSignedIn={() => finish('drive')} />
                </Suspense>
              ),
            },
          ]}
        />
        <ProviderSignIn returnTo={() => signInReturnPath(searchParams, locale, signUp ? 'drive' : 'account-home')} />
        <div className="mt-6">
          <GuestSignIn onSignedIn={() => finish()} />
        </div>
      </AuthShell>
    </>
  )
}
