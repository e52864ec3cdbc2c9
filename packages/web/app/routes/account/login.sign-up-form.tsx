import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { INVITE_PARAM } from '../../components/account/invite-param'
import { CodeField } from '../../components/auth/code-field'
import { NewPasswordField } from '../../components/auth/new-password-field'
import { ContactFields } from '../../components/auth/contact-fields'
import { useFormAttempt } from '../../components/auth/use-form-attempt'
import { useIdentityCall } from '../../components/auth/use-identity-call'
import { useVerification } from '../../components/auth/use-verification'
import { TextField } from '../../components/ui/text-field'
import { checkCode, checkPassword, PATTERN_VALUES } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { AuthForm } from '../../components/auth/auth-form'

// The profile name the service accepts (identity schemas cap strings at 256; 64 keeps it readable).
const NAME_MAX_LENGTH = 64
const INVITE_CODE_MAX_LENGTH = 32

/** Creates an account from a verified e-mail or phone number, a password and an optional name. */
export function SignUpForm({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const { t } = useT()
  const { pending, error, setError, call } = useIdentityCall<'submit' | 'send'>()
  const verification = useVerification(call, { usage: 'REGISTER', target: 'ANY', setError })
  const { formRef, attempted, attempt } = useFormAttempt()
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [name, setName] = useState('')
  // An invite link (/account/login?tab=sign-up&invite=CODE) fills the code in.
  const [searchParams] = useSearchParams()
  const [inviteCode, setInviteCode] = useState(() => (searchParams.get(INVITE_PARAM) ?? '').slice(0, INVITE_CODE_MAX_LENGTH))
  const [finishing, setFinishing] = useState(false)

  const codeProblem = checkCode(code)
  const passwordProblem = checkPassword(password)
  const codeError = !attempted ? null : codeProblem ? t(codeProblem, PATTERN_VALUES) : verification.sent ? null : t('auth.code.sendFirst')

  async function submit() {
    const addressValid = verification.validateAddress()
    const valid = addressValid && !codeProblem && !passwordProblem && verification.sent !== null
    attempt(valid)
    const sent = verification.sent
    if (!valid || !sent) return
    const displayName = name.trim()
    const result = await call('submit', (client) =>
      client.signUp({ ...verification.contact, verificationId: sent.verificationId, code, password, ...(displayName ? { name: displayName } : {}), ...(inviteCode.trim() ? { inviteCode: inviteCode.trim() } : {}) }),
    )
    if (!result.ok) return
    verification.forget()
    setFinishing(true)
    await onSignedIn()
  }

  return (
    <AuthForm formRef={formRef} onSubmit={submit} error={error} submitLabel={t('auth.signUp.submit')} loading={pending === 'submit' || finishing} disabled={pending === 'send'}>
      <ContactFields legend={t('auth.contact.signUpWith')} verification={verification} />
      <CodeField label={t('auth.fields.code')} value={code} onChange={setCode} error={codeError} onSend={() => void verification.send()} sending={pending === 'send'} sent={verification.sent} resendAtMs={verification.resendAtMs} sentElsewhere={verification.sentElsewhere} />
      <NewPasswordField value={password} onChange={setPassword} problem={passwordProblem} showProblem={attempted} />
      <TextField label={t('auth.fields.name')} name="name" autoComplete="nickname" maxLength={NAME_MAX_LENGTH} value={name} onChange={(event) => setName(event.target.value)} />
      <TextField
        label={t('auth.fields.inviteCode')}
        name="invite_code"
        autoComplete="off"
        spellCheck={false}
        maxLength={INVITE_CODE_MAX_LENGTH}
        value={inviteCode}
        onChange={(event) => setInviteCode(event.target.value)}
        hint={t('auth.fields.inviteCodeHint')}
      />
    </AuthForm>
  )
}
