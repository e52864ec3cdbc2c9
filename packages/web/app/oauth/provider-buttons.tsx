import { useState } from 'react'
import { OrDivider } from '../components/auth/or-divider'
import { useIdentityCall } from '../components/auth/use-identity-call'
import { Alert } from '../components/ui/alert'
import { Button } from '../components/ui/button'
import { useLocale, useT } from '../i18n/use-locale'
import { leaveTo } from './leave-to'
import { ProviderIcon } from './provider-icon'
import { startProviderSignIn } from './provider-sign-in'
import { useProviders } from './use-providers'

/**
 * The login page's "Continue with …" buttons, one per provider the operator configured, under an
 * "or". Nothing at all when none is configured, or while (or when) the list cannot be loaded:
 * the password and code forms still work. `returnTo` names the path (with its locale prefix) the
 * callback page sends the visitor to once signed in.
 */
export function ProviderSignIn({ returnTo }: { returnTo(): string }) {
  const { t } = useT()
  const locale = useLocale()
  const { state } = useProviders()
  const { pending, error, setError, call } = useIdentityCall<string>()
  const [leaving, setLeaving] = useState<string | null>(null)

  if (state.status !== 'ready' || state.value.length === 0) return null

  async function start(providerId: string) {
    const result = await call(providerId, (client) => startProviderSignIn(client, { providerId, mode: 'signin', returnTo: returnTo(), locale }))
    if (!result.ok) return
    // The button keeps loading while the browser leaves for the provider.
    setLeaving(providerId)
    if (!leaveTo(result.value)) {
      setLeaving(null)
      setError(t('common.errorPage.internalMessage'))
    }
  }

  const busy = pending !== null || leaving !== null
  return (
    <div className="mt-6 space-y-3" data-testid="provider-sign-in">
      <OrDivider />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <ul aria-label={t('oauth.providers.label')} className="space-y-2">
        {state.value.map((provider) => (
          <li key={provider.id}>
            {/* A long provider name wraps: the button grows instead of clipping it. */}
            <Button variant="secondary" block className="h-auto! min-h-11 py-2.5 text-center" loading={pending === provider.id || leaving === provider.id} disabled={busy} onClick={() => void start(provider.id)} data-provider={provider.id}>
              {pending === provider.id || leaving === provider.id ? null : <ProviderIcon icon={provider.icon} />}
              {t('oauth.providers.continueWith', { name: provider.name })}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  )
}
