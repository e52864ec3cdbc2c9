import { type ConnectedApp, GenericErrors } from '@cumulus/protocol'
import { isIdentityError } from '@cumulus/sdk'
import { useRef, useState } from 'react'
import { ConfirmDialog } from '../../drive/confirm-dialog'
import { useErrorText } from '../../drive/use-error-text'
import { useLocale, useT } from '../../i18n/use-locale'
import { getIdentityClient } from '../../session/identity-client'
import { Button } from '../ui/button'
import { formatDate } from './format'
import { focusAfterRowRemoved, type Notice, NoticeArea, Section, SectionLoadFailed, SectionLoading } from './section'
import { useConnectedApps } from './use-connected-apps'

/** The section's anchor (`/account/home#connected-apps`). */
export const CONNECTED_APPS_ID = 'connected-apps'

/**
 * An app's logo as its operator registered it, else (none, or it fails to load) a generic app
 * mark. Decorative: the app's name is always written next to it.
 */
function AppLogo({ logo }: { logo: string }) {
  const [broken, setBroken] = useState<string | null>(null)
  const frame = 'flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-xl'
  if (logo && broken !== logo) {
    return (
      <span className={`${frame} bg-white ring-1 ring-slate-200 dark:ring-slate-700`}>
        <img src={logo} alt="" aria-hidden="true" referrerPolicy="no-referrer" onError={() => setBroken(logo)} className="size-full object-contain" data-testid="app-logo" />
      </span>
    )
  }
  return (
    <span className={`${frame} bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300`} data-testid="app-logo-generic">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <rect x="4" y="4" width="6.5" height="6.5" rx="1.5" />
        <rect x="13.5" y="4" width="6.5" height="6.5" rx="1.5" />
        <rect x="4" y="13.5" width="6.5" height="6.5" rx="1.5" />
        <rect x="13.5" y="13.5" width="6.5" height="6.5" rx="1.5" />
      </svg>
    </span>
  )
}

/**
 * Connected apps: the third-party apps this account let in through the consent page (/authorize)
 * or the device page (/device), each with when it was allowed and what it may do (the server's
 * words, in the page's language). Disconnect, behind a confirmation, forgets the consent and ends
 * the app's sessions at once; its next sign-in asks again. The heading stays when the list is
 * empty, so people looking for the place find it.
 */
export function ConnectedAppsSection() {
  const { t } = useT()
  const locale = useLocale()
  const { state, reloading, reload, forget } = useConnectedApps()
  const [disconnecting, setDisconnecting] = useState<ConnectedApp | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const loadError = useErrorText(state.status === 'failed' ? state.error : null)
  const listRef = useRef<HTMLUListElement>(null)
  const emptyRef = useRef<HTMLParagraphElement>(null)
  // Set when an app left the list: its Disconnect button is gone, so the focus goes to the next
  // app's (else the previous one's, else the empty-list text) instead of falling to <body>.
  const focusAfterClose = useRef<{ clientId: string | null } | null>(null)

  async function disconnect(app: ConnectedApp) {
    const clientId = app.client.client_id
    try {
      await getIdentityClient(locale).disconnectApp(clientId)
    } catch (error) {
      // not_found: it holds nothing of this account any more (disconnected in another tab): done all the same.
      if (!(isIdentityError(error) && error.is(GenericErrors.not_found))) throw error
    }
    const apps = state.status === 'ready' ? state.value : []
    const index = apps.findIndex((a) => a.client.client_id === clientId)
    const neighbour = apps[index + 1] ?? apps[index - 1]
    focusAfterClose.current = { clientId: neighbour && neighbour !== app ? neighbour.client.client_id : null }
    forget(clientId)
    setNotice({ tone: 'success', message: t('accountHome.connectedApps.disconnected', { app: app.client.name }) })
  }

  function focusAfterDisconnect(event: Event) {
    const target = focusAfterClose.current
    focusAfterClose.current = null
    if (target) focusAfterRowRemoved(event, listRef.current, '[data-testid="connected-app"]', (row) => row.dataset.client, target.clientId, [emptyRef.current])
  }

  return (
    <Section id={CONNECTED_APPS_ID} title={t('accountHome.connectedApps.title')} description={t('accountHome.connectedApps.description')} testId="connected-apps">
      {state.status === 'loading' ? (
        <SectionLoading label={t('accountHome.connectedApps.loading')} />
      ) : state.status === 'failed' ? (
        <SectionLoadFailed message={t('accountHome.connectedApps.loadFailed', { reason: loadError ?? '' })} retryLabel={t('accountHome.connectedApps.retry')} reloading={reloading} onRetry={reload} />
      ) : state.value.length === 0 ? (
        <p ref={emptyRef} tabIndex={-1} className="py-3 text-sm text-slate-600 outline-none dark:text-slate-400" data-testid="connected-apps-empty">
          {t('accountHome.connectedApps.empty')}
        </p>
      ) : (
        <ul ref={listRef} aria-label={t('accountHome.connectedApps.listLabel')} className="divide-y divide-slate-100 dark:divide-slate-800">
          {state.value.map((app) => (
            <li key={app.client.client_id} className="flex gap-3 py-4" data-testid="connected-app" data-client={app.client.client_id}>
              <AppLogo logo={app.client.logo} />
              <div className="min-w-0 flex-1 sm:flex sm:items-start sm:gap-4">
                <div className="min-w-0 flex-1">
                  <p className="break-words font-medium text-slate-900 dark:text-slate-100" data-testid="connected-app-name">
                    {app.client.name}
                  </p>
                  <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="connected-app-granted">
                    {t('accountHome.connectedApps.allowedOn', { date: formatDate(app.granted_at, locale) })}
                  </p>
                  {app.scopes.length > 0 ? (
                    <ul aria-label={t('accountHome.connectedApps.scopesLabel', { app: app.client.name })} className="mt-2 space-y-1" data-testid="connected-app-scopes">
                      {app.scopes.map((scope) => (
                        <li key={scope.id} className="flex gap-2 text-sm text-slate-700 dark:text-slate-300" data-scope={scope.id}>
                          <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
                            <path d="m4.5 10.5 3.5 3.5 7.5-8" />
                          </svg>
                          <span className="min-w-0 break-words">{scope.description}</span>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
                <Button
                  variant="secondary"
                  className="mt-3 shrink-0 sm:mt-0"
                  aria-label={t('accountHome.connectedApps.disconnectLabel', { app: app.client.name })}
                  onClick={() => {
                    setNotice(null)
                    setDisconnecting(app)
                  }}
                >
                  {t('accountHome.connectedApps.disconnect')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <NoticeArea notice={notice} />
      <ConfirmDialog
        open={disconnecting !== null}
        onOpenChange={(open) => {
          if (!open) setDisconnecting(null)
        }}
        title={t('accountHome.connectedApps.confirmTitle', { app: disconnecting?.client.name ?? '' })}
        text={t('accountHome.connectedApps.confirmText', { app: disconnecting?.client.name ?? '' })}
        confirmLabel={t('accountHome.connectedApps.disconnect')}
        onConfirm={() => (disconnecting ? disconnect(disconnecting) : Promise.resolve())}
        onCloseAutoFocus={focusAfterDisconnect}
      />
    </Section>
  )
}
