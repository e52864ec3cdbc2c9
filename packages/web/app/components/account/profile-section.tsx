import type { UserInfo } from '@cumulus/sdk'
import { useEffect, useId, useRef, useState } from 'react'
import { useT } from '../../i18n/use-locale'
import { ContactForm, type ContactKind } from './contact-form'
import { EditNameForm } from './edit-name-form'
import { type Notice, NoticeArea, Row, rowActionClass, Section } from './section'

type Editing = 'name' | ContactKind | null

const COPIED_FEEDBACK_MS = 2000

/** Personal info: name (editable), e-mail and phone (bound by code), the user id (copyable). */
export function ProfileSection({ user, anonymous, bindRequest = 0 }: { user: UserInfo; anonymous: boolean; bindRequest?: number }) {
  const { t } = useT()
  const formId = useId()
  const [editing, setEditing] = useState<Editing>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const [copied, setCopied] = useState(false)
  const triggers = { name: useRef<HTMLButtonElement>(null), email: useRef<HTMLButtonElement>(null), phone: useRef<HTMLButtonElement>(null) }
  const returnFocusTo = useRef<Editing>(null)

  // Closing a form gives the focus back to the button that opened it.
  useEffect(() => {
    if (editing !== null || returnFocusTo.current === null) return
    triggers[returnFocusTo.current].current?.focus()
    returnFocusTo.current = null
  })

  // The guest banner asks for the e-mail form: opened, and brought into view.
  useEffect(() => {
    if (bindRequest === 0) return
    setNotice(null)
    setEditing('email')
    requestAnimationFrame(() => document.getElementById(`${formId}-email`)?.scrollIntoView?.({ block: 'center', behavior: 'smooth' }))
  }, [bindRequest, formId])

  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS)
    return () => clearTimeout(timer)
  }, [copied])

  function open(which: Exclude<Editing, null>) {
    setNotice(null)
    setEditing(which)
  }
  function close(notice: Notice | null = null) {
    returnFocusTo.current = editing
    setEditing(null)
    setNotice(notice)
  }

  async function copyUserId() {
    try {
      await navigator.clipboard.writeText(user.userId)
      setCopied(true)
      setNotice({ tone: 'success', message: t('accountHome.profile.userIdCopied') })
    } catch {
      setNotice({ tone: 'error', message: t('accountHome.profile.copyFailed') })
    }
  }

  const toggle = (which: Exclude<Editing, null>, label: string, text: string) => (
    <button
      ref={triggers[which]}
      type="button"
      className={rowActionClass}
      aria-label={label}
      aria-expanded={editing === which}
      aria-controls={editing === which ? `${formId}-${which}` : undefined}
      onClick={() => (editing === which ? close() : open(which))}
      disabled={editing !== null && editing !== which}
    >
      {text}
    </button>
  )

  const notSet = (testId: string) => (
    <span data-testid={testId} data-empty="true" className="text-slate-500 italic dark:text-slate-400">
      {t('accountHome.profile.notSet')}
    </span>
  )

  return (
    <Section title={t('accountHome.profile.title')} description={t('accountHome.profile.description')} testId="profile-section">
      <dl>
        <Row
          label={t('accountHome.profile.name')}
          value={
            <span data-testid="account-name" className="font-medium">
              {user.nickname || (anonymous ? t('accountHome.profile.guestName') : t('accountHome.profile.unnamed'))}
            </span>
          }
          action={toggle('name', t('accountHome.name.edit'), t('accountHome.profile.edit'))}
        >
          {editing === 'name' ? (
            <EditNameForm
              id={`${formId}-name`}
              initial={user.nickname}
              onCancel={() => close()}
              onSaved={(name) => close({ tone: 'success', message: t('accountHome.name.saved', { name }) })}
            />
          ) : null}
        </Row>
        <Row
          label={t('accountHome.profile.email')}
          value={user.email ? <span data-testid="account-email">{user.email}</span> : notSet('account-email')}
          action={toggle('email', user.email ? t('accountHome.contact.changeEmail') : t('accountHome.contact.addEmail'), user.email ? t('accountHome.profile.change') : t('accountHome.profile.add'))}
        >
          {editing === 'email' ? (
            <ContactForm
              id={`${formId}-email`}
              kind="email"
              current={user.email}
              onCancel={() => close()}
              onSaved={(address) => close({ tone: 'success', message: t('accountHome.contact.emailSaved', { address }) })}
            />
          ) : null}
        </Row>
        <Row
          label={t('accountHome.profile.phone')}
          value={user.phoneNumber ? <span data-testid="account-phone">{user.phoneNumber}</span> : notSet('account-phone')}
          action={toggle('phone', user.phoneNumber ? t('accountHome.contact.changePhone') : t('accountHome.contact.addPhone'), user.phoneNumber ? t('accountHome.profile.change') : t('accountHome.profile.add'))}
        >
          {editing === 'phone' ? (
            <ContactForm
              id={`${formId}-phone`}
              kind="phone"
              current={user.phoneNumber}
              onCancel={() => close()}
              onSaved={(address) => close({ tone: 'success', message: t('accountHome.contact.phoneSaved', { address }) })}
            />
          ) : null}
        </Row>
        <Row
          label={t('accountHome.profile.userId')}
          value={
            <code data-testid="account-user-id" className="rounded-md bg-slate-100 px-2 py-1 font-mono text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-100">
              {user.userId}
            </code>
          }
          action={
            <button type="button" className={rowActionClass} aria-label={t('accountHome.profile.copyUserId')} title={t('accountHome.profile.copyUserId')} onClick={() => void copyUserId()}>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                {copied ? (
                  <path d="M5 12.5l4.5 4.5L19 7.5" />
                ) : (
                  <>
                    <rect x="9" y="9" width="11" height="11" rx="2" />
                    <path d="M5 15V6a2 2 0 0 1 2-2h9" />
                  </>
                )}
              </svg>
              <span>{copied ? t('accountHome.profile.copied') : t('accountHome.profile.copy')}</span>
            </button>
          }
        />
      </dl>
      <NoticeArea notice={notice} />
    </Section>
  )
}
