import { GenericErrors, type UserSession, WEB_CLIENT_ID } from '@cumulus/protocol'
import { isIdentityError } from '@cumulus/sdk'
import { useRef, useState } from 'react'
import { ConfirmDialog } from '../../drive/confirm-dialog'
import { formatDateTime } from '../../drive/format'
import { pluralForm } from '../../drive/use-plural'
import { useErrorText } from '../../drive/use-error-text'
import { useLocale, useT } from '../../i18n/use-locale'
import { getIdentityClient } from '../../session/identity-client'
import { Button } from '../ui/button'
import { formatDate } from './format'
import { Badge, focusAfterRowRemoved, type Notice, NoticeArea, Section, SectionLoadFailed, SectionLoading } from './section'
import { type DeviceKind, deviceKind, deviceTitle } from './session-device'
import { useUserSessions } from './use-user-sessions'

/** The section's anchor (`/account/home#signed-in-devices`). */
export const SIGNED_IN_DEVICES_ID = 'signed-in-devices'

/** The device's shape (phone, monitor, TV, else a globe). Decorative: its title is written next to it. */
function DeviceIcon({ kind }: { kind: DeviceKind }) {
  return (
    <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300" data-testid="session-device-icon" data-kind={kind}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {kind === 'phone' ? (
          <>
            <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
            <path d="M11 18h2" />
          </>
        ) : kind === 'monitor' ? (
          <>
            <rect x="3" y="4" width="18" height="12" rx="2" />
            <path d="M8.5 20h7M12 16v4" />
          </>
        ) : kind === 'tv' ? (
          <>
            <rect x="3" y="7" width="18" height="13" rx="2" />
            <path d="m8 3 4 4 4-4" />
          </>
        ) : (
          <>
            <circle cx="12" cy="12" r="9" />
            <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
          </>
        )}
      </svg>
    </span>
  )
}

/** Between the facts of a row's second line; not read out (each fact is a sentence of its own). */
function Dot() {
  return (
    <span aria-hidden="true" className="px-1.5 text-slate-400 dark:text-slate-500">
      ·
    </span>
  )
}

/**
 * Where you're signed in: the live sessions of this account (each a device or app that signed
 * in), so people can spot one they do not recognise and end it. This device comes first, marked,
 * without a Sign out button: the page's own sign-out is for it, and ending it here would leave
 * the page signed out under the user. Sign out, behind a confirmation, ends that session at once;
 * "Sign out of all other devices" ends every one but this.
 */
export function SignedInDevicesSection() {
  const { t } = useT()
  const locale = useLocale()
  const { state, reloading, reload, forget, keepOnlyCurrent } = useUserSessions()
  const [ending, setEnding] = useState<UserSession | null>(null)
  const [endingOthers, setEndingOthers] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)
  const loadError = useErrorText(state.status === 'failed' ? state.error : null)
  const listRef = useRef<HTMLUListElement>(null)
  const emptyRef = useRef<HTMLParagraphElement>(null)
  // Set when sessions left the list: the button that was pressed is gone, so the focus goes to the
  // next session's Sign out (else the previous one's, else the list or the empty-list text)
  // instead of falling to <body>.
  const focusAfterClose = useRef<{ sessionId: string | null } | null>(null)

  const sessions = state.status === 'ready' ? state.value : []
  const others = sessions.filter((s) => !s.current)

  async function endSession(session: UserSession) {
    try {
      await getIdentityClient(locale).endSession(session.id)
    } catch (error) {
      // not_found: that session is over already (signed out there, or from another tab): done all the same.
      if (!(isIdentityError(error) && error.is(GenericErrors.not_found))) throw error
    }
    const index = others.findIndex((s) => s.id === session.id)
    const neighbour = others[index + 1] ?? others[index - 1]
    focusAfterClose.current = { sessionId: neighbour && neighbour !== session ? neighbour.id : null }
    forget(session.id)
    setNotice({ tone: 'success', message: t('accountHome.devices.signedOut', { device: deviceTitle(session.device, t) }) })
  }

  async function endOtherSessions() {
    const ended = await getIdentityClient(locale).endOtherSessions()
    focusAfterClose.current = { sessionId: null }
    keepOnlyCurrent()
    const translate = t as unknown as (key: string, values: Record<string, string>) => string
    setNotice({ tone: 'success', message: translate(`accountHome.devices.signedOutOthers.${pluralForm(locale, ended)}`, { count: ended.toLocaleString(locale) }) })
  }

  function focusAfterEnd(event: Event) {
    const target = focusAfterClose.current
    focusAfterClose.current = null
    if (target) focusAfterRowRemoved(event, listRef.current, '[data-testid="user-session"]', (row) => row.dataset.session, target.sessionId, [listRef.current, emptyRef.current])
  }

  return (
    <Section id={SIGNED_IN_DEVICES_ID} title={t('accountHome.devices.title')} description={t('accountHome.devices.description')} testId="signed-in-devices">
      {state.status === 'loading' ? (
        <SectionLoading label={t('accountHome.devices.loading')} />
      ) : state.status === 'failed' ? (
        <SectionLoadFailed message={t('accountHome.devices.loadFailed', { reason: loadError ?? '' })} retryLabel={t('accountHome.devices.retry')} reloading={reloading} onRetry={reload} />
      ) : sessions.length === 0 ? (
        <p ref={emptyRef} tabIndex={-1} className="py-3 text-sm text-slate-600 outline-none dark:text-slate-400" data-testid="sessions-empty">
          {t('accountHome.devices.empty')}
        </p>
      ) : (
        <>
          {/* Focusable only from script: it takes the focus once every Sign out button is gone. */}
          <ul ref={listRef} tabIndex={-1} aria-label={t('accountHome.devices.listLabel')} className="divide-y divide-slate-100 outline-none dark:divide-slate-800">
            {sessions.map((session) => {
              const title = deviceTitle(session.device, t)
              const signedIn = formatDate(session.created_at, locale)
              // This device is the one in use; the others' last activity is their last token
              // renewal (to the hour or two: the server renews no more often).
              const lastActive = session.current ? '' : formatDateTime(session.last_active_at, locale)
              return (
                <li key={session.id} className="flex gap-3 py-4" data-testid="user-session" data-session={session.id} data-current={session.current ? 'true' : 'false'}>
                  <DeviceIcon kind={deviceKind(session.device.type)} />
                  <div className="min-w-0 flex-1 sm:flex sm:items-start sm:gap-4">
                    <div className="min-w-0 flex-1">
                      {/* The badge wraps under a long title, flush with it. */}
                      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium text-slate-900 dark:text-slate-100">
                        <span className="min-w-0 break-words" data-testid="session-title">
                          {title}
                        </span>
                        {session.current ? (
                          <Badge tone="success" testId="session-current">
                            {t('accountHome.devices.thisDevice')}
                          </Badge>
                        ) : null}
                      </p>
                      <p className="break-words text-sm text-slate-600 dark:text-slate-400">
                        {session.client.name ? (
                          <>
                            <span data-testid="session-app">{session.client.client_id === WEB_CLIENT_ID ? t('accountHome.devices.webApp') : session.client.name}</span>
                            {signedIn || lastActive || session.current ? <Dot /> : null}
                          </>
                        ) : null}
                        {signedIn ? <span data-testid="session-signed-in">{t('accountHome.devices.signedInOn', { date: signedIn })}</span> : null}
                        {signedIn && (lastActive || session.current) ? <Dot /> : null}
                        {session.current ? (
                          <span data-testid="session-last-active">{t('accountHome.devices.activeNow')}</span>
                        ) : lastActive ? (
                          <span data-testid="session-last-active">{t('accountHome.devices.lastActive', { when: lastActive })}</span>
                        ) : null}
                      </p>
                      {session.ip ? (
                        <p className="break-words text-sm text-slate-600 dark:text-slate-400" data-testid="session-ip">
                          {t('accountHome.devices.fromIp', { ip: session.ip })}
                        </p>
                      ) : null}
                    </div>
                    {session.current ? null : (
                      <Button
                        variant="secondary"
                        className="mt-3 shrink-0 sm:mt-0"
                        aria-label={t('accountHome.devices.signOutLabel', { device: title })}
                        data-testid="sign-out-session"
                        onClick={() => {
                          setNotice(null)
                          setEnding(session)
                        }}
                      >
                        {t('accountHome.devices.signOut')}
                      </Button>
                    )}
                  </div>
                </li>
              )
            })}
          </ul>
          {others.length > 0 ? (
            <div className="border-t border-slate-100 pt-4 dark:border-slate-800">
              {/* Long in some languages: it may wrap to two lines on a phone rather than overflow. */}
              <Button
                variant="secondary"
                className="h-auto! min-h-11 w-full py-2.5 text-center sm:w-auto"
                data-testid="sign-out-other-sessions"
                onClick={() => {
                  setNotice(null)
                  setEndingOthers(true)
                }}
              >
                {t('accountHome.devices.signOutOthers')}
              </Button>
            </div>
          ) : null}
        </>
      )}
      <NoticeArea notice={notice} />
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => {
          if (!open) setEnding(null)
        }}
        title={t('accountHome.devices.confirmTitle', { device: ending ? deviceTitle(ending.device, t) : '' })}
        text={t('accountHome.devices.confirmText', { device: ending ? deviceTitle(ending.device, t) : '' })}
        confirmLabel={t('accountHome.devices.signOut')}
        onConfirm={() => (ending ? endSession(ending) : Promise.resolve())}
        onCloseAutoFocus={focusAfterEnd}
        wrapTitle
      />
      <ConfirmDialog
        open={endingOthers}
        onOpenChange={setEndingOthers}
        title={t('accountHome.devices.confirmOthersTitle')}
        text={t('accountHome.devices.confirmOthersText')}
        confirmLabel={t('accountHome.devices.signOut')}
        onConfirm={endOtherSessions}
        onCloseAutoFocus={focusAfterEnd}
        wrapTitle
      />
    </Section>
  )
}
