import { PASSWORD_MIN_LENGTH } from '@cumulus/protocol'
import type { UserInfo } from '@cumulus/sdk'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { LocaleLink } from '../../navigation/locale-link'
import { refreshSession } from '../../session/session-store'
import { Alert } from '../ui/alert'
import { Button } from '../ui/button'
import { PasswordField } from '../ui/password-field'
import { PATTERN_VALUES } from '../../forms/patterns'
import { checkPasswordChange } from './account-checks'
import { formatDate } from './format'
import { type Notice, NoticeArea, Row, rowActionClass, Section } from './section'
import { useAccountAction } from './use-account-action'
import { escapeCancels } from './escape-cancels'

type Field = 'current' | 'next' | 'confirm'

/** PATCH /v1/user/password `{ old_password, password }`. The server ends every other session. */
export function ChangePasswordForm({ id, onSaved, onCancel }: { id: string; onSaved(): void; onCancel(): void }) {
  const { t } = useT()
  const { run, pending, error } = useAccountAction()
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', confirm: '' })
  const [problem, setProblem] = useState<ReturnType<typeof checkPasswordChange>>(null)
  const currentRef = useRef<HTMLInputElement>(null)
  const nextRef = useRef<HTMLInputElement>(null)
  const confirmRef = useRef<HTMLInputElement>(null)

  const set = (field: Field) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }))
  const errorOf = (field: Field) => (problem?.field === field ? t(problem.key, PATTERN_VALUES) : null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const found = checkPasswordChange(values)
    setProblem(found)
    if (found) {
      ;({ current: currentRef, next: nextRef, confirm: confirmRef })[found.field].current?.focus()
      return
    }
    const result = await run(async (client) => {
      await client.request('PATCH', '/v1/user/password', { body: { old_password: values.current, password: values.next }, auth: true })
      await refreshSession(client)
    })
    if (result.ok) onSaved()
  }

  return (
    <form id={id} onSubmit={submit} onKeyDown={escapeCancels(onCancel, pending)} noValidate className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/50">
      <PasswordField ref={currentRef} label={t('accountHome.password.current')} autoComplete="current-password" value={values.current} onChange={set('current')} autoFocus error={errorOf('current')} />
      <PasswordField ref={nextRef} label={t('accountHome.password.new')} autoComplete="new-password" value={values.next} onChange={set('next')} error={errorOf('next')} hint={t('accountHome.password.hint', { min: PASSWORD_MIN_LENGTH })} />
      <PasswordField ref={confirmRef} label={t('accountHome.password.confirm')} autoComplete="new-password" value={values.confirm} onChange={set('confirm')} error={errorOf('confirm')} />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('accountHome.password.save')}
        </Button>
      </div>
    </form>
  )
}

/** Security: the password (changed here, or set through password recovery when there is none). */
export function SecuritySection({ user }: { user: UserInfo }) {
  const { t } = useT()
  const locale = useLocale()
  const formId = useId()
  const [editing, setEditing] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const wasEditing = useRef(false)

  useEffect(() => {
    if (wasEditing.current && !editing) trigger.current?.focus()
    wasEditing.current = editing
  }, [editing])

  const hasPassword = user.curUser?.password === 'SET'
  const changedAt = hasPassword ? formatDate(user.curUser?.password_updated_at, locale) : ''

  return (
    <Section title={t('accountHome.security.title')} description={t('accountHome.security.description')} testId="security-section">
      <dl>
        <Row
          label={t('accountHome.password.label')}
          value={
            hasPassword ? (
              <span className="flex flex-col">
                <span aria-hidden="true" className="tracking-[0.2em] text-slate-700 dark:text-slate-200">
                  ••••••••
                </span>
                {changedAt ? <span className="text-sm text-slate-600 dark:text-slate-400">{t('accountHome.password.lastChanged', { date: changedAt })}</span> : null}
              </span>
            ) : (
              <span className="text-slate-600 dark:text-slate-400">{t('accountHome.password.none')}</span>
            )
          }
          action={
            hasPassword ? (
              <button
                ref={trigger}
                type="button"
                className={rowActionClass}
                aria-label={t('accountHome.password.change')}
                aria-expanded={editing}
                aria-controls={editing ? `${formId}-password` : undefined}
                onClick={() => {
                  setNotice(null)
                  setEditing((e) => !e)
                }}
              >
                {t('accountHome.profile.change')}
              </button>
            ) : (
              <LocaleLink page="password-recover" className={rowActionClass}>
                {t('accountHome.password.set')}
              </LocaleLink>
            )
          }
        >
          {editing ? (
            <ChangePasswordForm
              id={`${formId}-password`}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                setEditing(false)
                setNotice({ tone: 'success', message: t('accountHome.password.saved') })
              }}
            />
          ) : null}
        </Row>
      </dl>
      <NoticeArea notice={notice} />
    </Section>
  )
}
