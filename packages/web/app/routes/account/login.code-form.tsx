import { useState } from 'react'
import { CodeField } from '../../components/auth/code-field'
import { ContactFields } from '../../components/auth/contact-fields'
import { useFormAttempt } from '../../components/auth/use-form-attempt'
import { useIdentityCall } from '../../components/auth/use-identity-call'
import { useVerification } from '../../components/auth/use-verification'
import { checkCode, PATTERN_VALUES } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { AuthForm } from '../../components/auth/auth-form'

/** Sign-in with a code sent by e-mail or SMS to the account's address. */
export function CodeSignInForm({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const { t } = useT()
  const { pending, error, setError, call } = useIdentityCall<'submit' | 'send'>()
  const verification = useVerification(call, { usage: 'SIGN_IN', target: 'USER', setError })
  const { formRef, attempted, attempt } = useFormAttempt()
  const [code, setCode] = useState('')
  const [finishing, setFinishing] = useState(false)

  const codeProblem = checkCode(code)
  const codeError = !attempted ? null : codeProblem ? t(codeProblem, PATTERN_VALUES) : verification.sent ? null : t('auth.code.sendFirst')

  async function submit() {
    const addressValid = verification.validateAddress()
    const valid = addressValid && !codeProblem && verification.sent !== null
    attempt(valid)
    const sent = verification.sent
    if (!valid || !sent) return
    const result = await call('submit', (client) => client.signInWithCode({ username: sent.address, verificationId: sent.verificationId, code }))
    if (!result.ok) return
    verification.forget()
    setFinishing(true)
    await onSignedIn()
  }

  return (
    <AuthForm formRef={formRef} onSubmit={submit} error={error} submitLabel={t('auth.login.submit')} loading={pending === 'submit' || finishing} disabled={pending === 'send'}>
      <ContactFields legend={t('auth.contact.sendTo')} verification={verification} />
      <CodeField label={t('auth.fields.code')} value={code} onChange={setCode} error={codeError} onSend={() => void verification.send()} sending={pending === 'send'} sent={verification.sent} resendAtMs={verification.resendAtMs} sentElsewhere={verification.sentElsewhere} />
    </AuthForm>
  )
}
