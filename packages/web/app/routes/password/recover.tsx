import { useState } from 'react'
import { AuthShell, primaryLinkClass, textLinkClass } from '../../components/auth/auth-shell'
import { CodeField } from '../../components/auth/code-field'
import { NewPasswordField } from '../../components/auth/new-password-field'
import { ContactFields } from '../../components/auth/contact-fields'
import { useFormAttempt } from '../../components/auth/use-form-attempt'
import { useIdentityCall } from '../../components/auth/use-identity-call'
import { useVerification } from '../../components/auth/use-verification'
import { PageTitle } from '../../components/page-title'
import { Alert } from '../../components/ui/alert'
import { checkCode, checkPassword, PATTERN_VALUES } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { LocaleLink } from '../../navigation/locale-link'
import { AuthForm } from '../../components/auth/auth-form'

/**
 * /password/recover: a code to the account's e-mail or phone, then a new password. The service
 * ends every session of that user, so the page sends the visitor to sign in again.
 */
export default function RecoverPage() {
  const { t } = useT()
  const [done, setDone] = useState(false)
  return (
    <>
      <PageTitle title={t('auth.recover.title')} description={t('auth.recover.subtitle')} />
      <AuthShell
        heading={done ? t('auth.recover.doneHeading') : t('auth.recover.heading')}
        subtitle={done ? undefined : t('auth.recover.subtitle')}
        footer={
          done ? null : (
            <>
              {t('auth.recover.remembered')}{' '}
              <LocaleLink page="account-login" className={textLinkClass}>
                {t('auth.recover.backToSignIn')}
              </LocaleLink>
            </>
          )
        }
      >
        {done ? <RecoverDone /> : <RecoverForm onDone={() => setDone(true)} />}
      </AuthShell>
    </>
  )
}

function RecoverForm({ onDone }: { onDone(): void }) {
  const { t } = useT()
  const { pending, error, setError, call } = useIdentityCall<'submit' | 'send'>()
  const verification = useVerification(call, { usage: 'PASSWORD_RESET', target: 'USER', setError })
  const { formRef, attempted, attempt } = useFormAttempt()
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')

  const codeProblem = checkCode(code)
  const passwordProblem = checkPassword(password)
  const codeError = !attempted ? null : codeProblem ? t(codeProblem, PATTERN_VALUES) : verification.sent ? null : t('auth.code.sendFirst')

  async function submit() {
    const addressValid = verification.validateAddress()
    const valid = addressValid && !codeProblem && !passwordProblem && verification.sent !== null
    attempt(valid)
    const sent = verification.sent
    if (!valid || !sent) return
    const result = await call('submit', (client) => client.resetPassword({ ...verification.contact, verificationId: sent.verificationId, code, password }))
    if (!result.ok) return
    verification.forget()
    onDone()
  }

  return (
    <AuthForm formRef={formRef} onSubmit={submit} error={error} submitLabel={t('auth.recover.submit')} loading={pending === 'submit'} disabled={pending === 'send'}>
      <ContactFields legend={t('auth.contact.sendTo')} verification={verification} />
      <CodeField label={t('auth.fields.code')} value={code} onChange={setCode} error={codeError} onSend={() => void verification.send()} sending={pending === 'send'} sent={verification.sent} resendAtMs={verification.resendAtMs} sentElsewhere={verification.sentElsewhere} />
      <NewPasswordField value={password} onChange={setPassword} problem={passwordProblem} showProblem={attempted} />
    </AuthForm>
  )
}

function RecoverDone() {
  const { t } = useT()
  return (
    <div className="space-y-6">
      <Alert tone="success">
        <p className="font-semibold">{t('auth.recover.done')}</p>
        <p className="mt-1">{t('auth.recover.doneDetail')}</p>
      </Alert>
      <LocaleLink page="account-login" className={`${primaryLinkClass} w-full`}>
        {t('auth.recover.signIn')}
      </LocaleLink>
    </div>
  )
}
