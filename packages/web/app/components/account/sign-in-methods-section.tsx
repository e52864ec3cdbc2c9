import type { ProviderBinding, ProviderInfo } from '@cumulus/protocol'
import type { UserInfo } from '@cumulus/sdk'
import { useEffect, useState } from 'react'
import { ConfirmDialog } from '../../drive/confirm-dialog'
import { useErrorText } from '../../drive/use-error-text'
import { useLocale, useT } from '../../i18n/use-locale'
import { pagePath } from '../../navigation/locale-link'
import { leaveTo } from '../../oauth/leave-to'
import { ProviderIcon } from '../../oauth/provider-icon'
import { startProviderSignIn, takeJustLinked } from '../../oauth/provider-sign-in'
import { useProviders } from '../../oauth/use-providers'
import { getIdentityClient } from '../../session/identity-client'
import { refreshSession } from '../../session/session-store'
import { Button } from '../ui/button'
import { type Notice, NoticeArea, Section, SectionLoadFailed } from './section'
import { useAccountAction } from './use-account-action'

/** The section's anchor: a binding's callback returns here. */
export const SIGN_IN_METHODS_ID = 'sign-in-methods'

interface MethodRow {
  provider: ProviderInfo
  binding: ProviderBinding | null
}

/** Every configured provider with its binding, then bindings of providers no longer configured (so they can still be unlinked). */
function methodRows(providers: ProviderInfo[], bindings: ProviderBinding[]): MethodRow[] {
  const rows = providers.map((provider) => ({ provider, binding: bindings.find((b) => b.id === provider.id) ?? null }))
  const orphans = bindings.filter((b) => !providers.some((p) => p.id === b.id)).map((binding) => ({ provider: { id: binding.id, name: binding.id, icon: '' }, binding }))
  return [...rows, ...orphans]
}

/**
 * Sign-in methods: the identity providers the operator configured, each linked to this account
 * (with the provider's name for it, and Unlink behind a confirmation) or not (Link goes through
 * the provider and comes back here). Absent when no provider is configured. The server refuses
 * to unlink the account's last way to sign in; its message is shown in the dialog.
 */
export function SignInMethodsSection({ user }: { user: UserInfo }) {
  const { t } = useT()
  const locale = useLocale()
  const { state, reloading, reload } = useProviders()
  const linking = useAccountAction()
  const [linkingId, setLinkingId] = useState<string | null>(null)
  const [unlinking, setUnlinking] = useState<MethodRow | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const [justLinked, setJustLinked] = useState<string | null>(null)
  const loadError = useErrorText(state.status === 'failed' ? state.error : null)

  // A binding completed on the callback page just before this page opened: say so once.
  useEffect(() => {
    const providerId = takeJustLinked()
    if (providerId) setJustLinked(providerId)
  }, [])

  const bindings = user.curUser?.providers ?? []
  if (state.status === 'loading') return null
  const rows = state.status === 'ready' ? methodRows(state.value, bindings) : []
  if (state.status === 'ready' && rows.length === 0) return null

  async function link(provider: ProviderInfo) {
    setNotice(null)
    setJustLinked(null)
    setLinkingId(provider.id)
    const returnTo = `${pagePath('account-home', locale)}#${SIGN_IN_METHODS_ID}`
    const result = await linking.run((client) => startProviderSignIn(client, { providerId: provider.id, mode: 'bind', returnTo, locale }))
    if (result.ok && leaveTo(result.value)) return
    setLinkingId(null)
    setNotice({ tone: 'error', message: result.ok ? t('common.errorPage.internalMessage') : result.message })
  }

  async function unlink(row: MethodRow) {
    const client = getIdentityClient(locale)
    await client.unbindProvider(row.provider.id)
    await refreshSession(client)
    setJustLinked(null)
    setNotice({ tone: 'success', message: t('accountHome.providers.unlinked', { provider: row.provider.name }) })
  }

  const linkedName = justLinked ? rows.find((row) => row.provider.id === justLinked)?.provider.name : undefined
  const shown: Notice | null = notice ?? (linkedName ? { tone: 'success', message: t('accountHome.providers.justLinked', { provider: linkedName }) } : null)

  return (
    <Section id={SIGN_IN_METHODS_ID} title={t('accountHome.providers.title')} description={t('accountHome.providers.description')} testId="sign-in-methods">
      {state.status === 'failed' ? (
        <SectionLoadFailed message={t('accountHome.providers.loadFailed', { reason: loadError ?? '' })} retryLabel={t('accountHome.providers.retry')} reloading={reloading} onRetry={reload} />
      ) : (
        <ul aria-label={t('accountHome.providers.listLabel')} className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <li key={row.provider.id} className="flex flex-wrap items-center gap-3 py-3" data-testid="sign-in-method" data-provider={row.provider.id} data-linked={row.binding !== null}>
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                <ProviderIcon icon={row.provider.icon} />
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-slate-900 dark:text-slate-100">{row.provider.name}</p>
                <p className="truncate text-sm text-slate-600 dark:text-slate-400" data-testid="sign-in-method-status">
                  {row.binding ? (row.binding.name ? t('accountHome.providers.linkedAs', { name: row.binding.name }) : t('accountHome.providers.linked')) : t('accountHome.providers.notLinked')}
                </p>
              </div>
              {row.binding ? (
                <Button variant="secondary" aria-label={t('accountHome.providers.unlinkLabel', { provider: row.provider.name })} disabled={linkingId !== null} onClick={() => setUnlinking(row)}>
                  {t('accountHome.providers.unlink')}
                </Button>
              ) : (
                <Button variant="secondary" aria-label={t('accountHome.providers.linkLabel', { provider: row.provider.name })} loading={linkingId === row.provider.id} disabled={linkingId !== null} onClick={() => void link(row.provider)}>
                  {t('accountHome.providers.link')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <NoticeArea notice={shown} />
      <ConfirmDialog
        open={unlinking !== null}
        onOpenChange={(open) => {
          if (!open) setUnlinking(null)
        }}
        title={t('accountHome.providers.confirmTitle', { provider: unlinking?.provider.name ?? '' })}
        text={t('accountHome.providers.confirmText', { provider: unlinking?.provider.name ?? '' })}
        confirmLabel={t('accountHome.providers.unlink')}
        onConfirm={() => (unlinking ? unlink(unlinking) : Promise.resolve())}
      />
    </Section>
  )
}
