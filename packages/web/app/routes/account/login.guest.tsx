import { useState } from 'react'
import { OrDivider } from '../../components/auth/or-divider'
import { useIdentityCall } from '../../components/auth/use-identity-call'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { useT } from '../../i18n/use-locale'

/** "Try without an account": an anonymous account (identity.md, signup/anonymously). */
export function GuestSignIn({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const { t } = useT()
  const { pending, error, call } = useIdentityCall<'guest'>()
  const [finishing, setFinishing] = useState(false)

  async function start() {
    const result = await call('guest', (client) => client.signUpAnonymously())
    if (!result.ok) return
    setFinishing(true)
    await onSignedIn()
  }

  return (
    <div className="space-y-3">
      <OrDivider />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button variant="secondary" block loading={pending === 'guest' || finishing} onClick={() => void start()}>
        {t('auth.login.guest')}
      </Button>
      <p className="text-center text-xs text-slate-600 dark:text-slate-400">{t('auth.login.guestHint')}</p>
    </div>
  )
}
