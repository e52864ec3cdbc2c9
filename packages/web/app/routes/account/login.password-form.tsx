import { useState } from 'react'
import { PasswordField } from '../../components/ui/password-field'
import { TextField } from '../../components/ui/text-field'
import { textLinkClass } from '../../components/auth/auth-shell'
import { useFormAttempt } from '../../components/auth/use-form-attempt'
import { useIdentityCall } from '../../components/auth/use-identity-call'
import { checkPasswordEntered, checkUsername, normalizeUsername, PATTERN_VALUES } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import { LocaleLink } from '../../navigation/locale-link'
import { AuthForm } from '../../components/auth/auth-form'

/** Sign-in with an e-mail, phone number (+…) or username and a password. */
export function PasswordSignInForm({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const { t } = useT()
  const { pending, error, call } = useIdentityCall<'submit'>()
  const { formRef, attempted, attempt } = useFormAttempt()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [finishing, setFinishing] = useState(false)

  const usernameError = checkUsername(username)
  const passwordError = checkPasswordEntered(password)

  async function submit() {
    const valid = !usernameError && !passwordError
    attempt(valid)
    if (!valid) return
    const result = await call('submit', (client) => client.signIn({ username: normalizeUsername(username), password }))
    if (!result.ok) return
    setFinishing(true)
    await onSignedIn()
  }

  return (
    <AuthForm formRef={formRef} onSubmit={submit} error={error} submitLabel={t('auth.login.submit')} loading={pending === 'submit' || finishing}>
      <TextField
        label={t('auth.fields.username')}
        name="username"
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        error={attempted && usernameError ? t(usernameError, PATTERN_VALUES) : null}
        hint={t('auth.fields.usernameHint')}
      />
      <div>
        <PasswordField
          label={t('auth.fields.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={attempted && passwordError ? t(passwordError, PATTERN_VALUES) : null}
        />
        <div className="mt-2 text-right text-sm">
          <LocaleLink page="password-recover" className={textLinkClass}>
            {t('auth.login.forgot')}
          </LocaleLink>
        </div>
      </div>
    </AuthForm>
  )
}
