import * as Dialog from '@radix-ui/react-dialog'
import { isAnonymousSub } from '@cumulus/sdk'
import { useState } from 'react'
import { AuthShell, primaryLinkClass, textLinkClass } from '../../components/auth/auth-shell'
import { useFormAttempt } from '../../components/auth/use-form-attempt'
import { useIdentityCall } from '../../components/auth/use-identity-call'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { PasswordField } from '../../components/ui/password-field'
import { checkPasswordEntered, PATTERN_VALUES } from '../../forms/patterns'
import { useLocale, useT } from '../../i18n/use-locale'
import { LocaleLink } from '../../navigation/locale-link'
import { getIdentityClient } from '../../session/identity-client'
import { refreshSession } from '../../session/session-store'
import { formatDays, formatErasureDate } from './unregister.period'
import { AuthForm } from '../../components/auth/auth-form'

export interface UnregisterFlowProps {
  /** The signed-in account's id (anonymous accounts cannot be deleted here). */
  userId: string
  /** Days of cancellation review before erasure (the operator's ACCOUNT_DELETION_GRACE_DAYS). */
  graceDays: number
}

/**
 * Deleting the account (identity.md, DELETE /v1/user/me): the password buys a sudo token, an
 * explicit confirmation spends it. The account then enters cancellation review: sign-in is
 * refused, and it is erased after `graceDays`.
 */
export function UnregisterFlow({ userId, graceDays }: UnregisterFlowProps) {
  const { t } = useT()
  const locale = useLocale()
  const [erasureDate, setErasureDate] = useState<string | null>(null)
  const period = formatDays(graceDays, locale)

  if (erasureDate) {
    return (
      <AuthShell heading={t('auth.unregister.doneHeading')}>
        <div className="space-y-6">
          <Alert tone="success">{t('auth.unregister.doneBody', { date: erasureDate })}</Alert>
          <LocaleLink page="index" className={`${primaryLinkClass} w-full`}>
            {t('auth.unregister.home')}
          </LocaleLink>
        </div>
      </AuthShell>
    )
  }

  return (
    <AuthShell
      heading={t('auth.unregister.heading')}
      subtitle={t('auth.unregister.subtitle')}
      footer={
        <LocaleLink page="account-home" className={textLinkClass}>
          {t('auth.unregister.keep')}
        </LocaleLink>
      }
    >
      <div className="space-y-6">
        <ul className="space-y-3 text-sm text-slate-700 dark:text-slate-200" data-testid="unregister-terms">
          {[t('auth.unregister.review', { period }), t('auth.unregister.refused'), t('auth.unregister.erased'), t('auth.unregister.signedOut')].map((line) => (
            <li key={line} className="flex gap-3">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" fill="currentColor">
                <path d="M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm0 4a1 1 0 0 0-1 1v4a1 1 0 1 0 2 0V7a1 1 0 0 0-1-1zm0 8.5a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2z" />
              </svg>
              <span>{line}</span>
            </li>
          ))}
        </ul>
        {isAnonymousSub(userId) ? (
          <Alert tone="info">{t('auth.unregister.guest')}</Alert>
        ) : (
          <DeleteForm period={period} onDeleted={() => setErasureDate(formatErasureDate(Date.now(), graceDays, locale))} />
        )}
      </div>
    </AuthShell>
  )
}

function DeleteForm({ period, onDeleted }: { period: string; onDeleted(): void }) {
  const { t } = useT()
  const locale = useLocale()
  const verify = useIdentityCall<'sudo'>()
  const remove = useIdentityCall<'delete'>()
  const { formRef, attempted, attempt } = useFormAttempt()
  const [password, setPassword] = useState('')
  const [sudoToken, setSudoToken] = useState<string | null>(null)
  const passwordProblem = checkPasswordEntered(password)

  async function confirmIdentity() {
    attempt(passwordProblem === null)
    if (passwordProblem) return
    const result = await verify.call('sudo', (client) => client.sudo(password))
    if (result.ok) setSudoToken(result.value)
  }

  async function deleteAccount() {
    if (!sudoToken) return
    const result = await remove.call('delete', (client) => client.deleteAccount(sudoToken))
    if (!result.ok) return
    await refreshSession(getIdentityClient(locale))
    setSudoToken(null)
    onDeleted()
  }

  return (
    <>
      <AuthForm formRef={formRef} onSubmit={confirmIdentity} error={verify.error} submitLabel={t('auth.unregister.submit')} loading={verify.pending === 'sudo'} variant="danger">
        <PasswordField
          label={t('auth.unregister.passwordLabel')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          hint={t('auth.unregister.passwordHint')}
          error={attempted && passwordProblem ? t(passwordProblem, PATTERN_VALUES) : null}
        />
      </AuthForm>
      <Dialog.Root
        open={sudoToken !== null}
        onOpenChange={(open) => {
          if (!open && remove.pending === null) {
            setSudoToken(null)
            remove.setError(null)
          }
        }}
      >
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
          <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-xl dark:border-slate-700 dark:bg-slate-900">
            <Dialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">{t('auth.unregister.confirmTitle')}</Dialog.Title>
            <Dialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t('auth.unregister.confirmBody', { period })}</Dialog.Description>
            {remove.error ? (
              <Alert tone="error" className="mt-4">
                {remove.error}
              </Alert>
            ) : null}
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={remove.pending !== null}>
                  {t('auth.unregister.cancel')}
                </Button>
              </Dialog.Close>
              <Button variant="danger" loading={remove.pending === 'delete'} onClick={() => void deleteAccount()}>
                {t('auth.unregister.confirm')}
              </Button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  )
}
