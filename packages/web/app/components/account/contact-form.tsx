import { type FormEvent, useEffect, useState } from 'react'
import { useT } from '../../i18n/use-locale'
import { refreshSession } from '../../session/session-store'
import { Alert } from '../ui/alert'
import { Button } from '../ui/button'
import { TextField } from '../ui/text-field'
import { checkCode, checkEmail, checkPhone, CODE_LENGTH, PATTERN_VALUES, type PatternMessageKey } from '../../forms/patterns'
import { PhoneField } from '../auth/phone-field'
import { countedWaitSeconds } from '../auth/use-verification'
import { type AccountCheckKey, checkNewContact } from './account-checks'
import { useAccountAction } from './use-account-action'
import { escapeCancels } from './escape-cancels'

export type ContactKind = 'email' | 'phone'

/** The server sends at most one code per address per minute (identity `resendIntervalSeconds`). */
export const RESEND_INTERVAL_SECONDS = 60

const USAGE = { email: 'EMAIL_ADDRESS_CHANGE', phone: 'PHONE_NUMBER_CHANGE' } as const

interface Sent {
  address: string
  verificationId: string
  expiresInMinutes: number
  /** Epoch ms after which another code may be asked for. */
  resendAtMs: number
  /** Kept when the code was right but saving failed (network), so a retry needs no new code. */
  verificationToken?: string
}

function useSecondsUntil(targetMs: number | null): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (targetMs === null || targetMs <= Date.now()) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [targetMs])
  return targetMs === null ? 0 : Math.max(0, Math.ceil((targetMs - now) / 1000))
}

/**
 * Binds a new e-mail address or phone number (identity.md "Users"): a code is sent to the new
 * address (usage EMAIL_ADDRESS_CHANGE / PHONE_NUMBER_CHANGE; a captcha may be asked for, the SDK
 * shows it through the page's overlay), the code is exchanged for a verification token, and
 * PATCH /v1/user/contact binds the address with that token.
 */
export function ContactForm({ id, kind, current, onSaved, onCancel }: { id: string; kind: ContactKind; current: string; onSaved(address: string): void; onCancel(): void }) {
  const { t } = useT()
  const send = useAccountAction()
  const save = useAccountAction()
  const [address, setAddress] = useState('')
  const [addressCheck, setAddressCheck] = useState<PatternMessageKey | AccountCheckKey | null>(null)
  const [code, setCode] = useState('')
  const [codeCheck, setCodeCheck] = useState<PatternMessageKey | null>(null)
  const [sent, setSent] = useState<Sent | null>(null)
  // A send the server refused for now (a code went to that address moments ago, from another tab
  // or device): the address waits until then, and the send button counts down.
  const [wait, setWait] = useState<{ address: string; untilMs: number } | null>(null)
  const resendIn = useSecondsUntil(sent?.resendAtMs ?? null)
  const sendIn = useSecondsUntil(wait && !sent && wait.address === address.trim() ? wait.untilMs : null)

  const label = kind === 'email' ? t('accountHome.contact.newEmail') : t('accountHome.contact.newPhone')

  async function sendCode(target: string) {
    const result = await send.run((client) =>
      client.sendVerification(kind === 'email' ? { email: target, usage: USAGE.email } : { phoneNumber: target, usage: USAGE.phone }),
    )
    if (!result.ok) {
      const seconds = countedWaitSeconds(result.error)
      if (seconds === null) return
      send.setError(null)
      const untilMs = Date.now() + seconds * 1000
      if (sent && sent.address === target) setSent({ ...sent, resendAtMs: untilMs })
      else setWait({ address: target, untilMs })
      return
    }
    setWait(null)
    setSent({
      address: target,
      verificationId: result.value.verificationId,
      expiresInMinutes: Math.max(1, Math.round(result.value.expiresIn / 60)),
      resendAtMs: Date.now() + RESEND_INTERVAL_SECONDS * 1000,
    })
    setCode('')
    save.setError(null)
  }

  async function submitAddress(event: FormEvent) {
    event.preventDefault()
    const target = address.trim()
    const problem = (kind === 'email' ? checkEmail(target) : checkPhone(target)) ?? checkNewContact(kind, target, current)
    setAddressCheck(problem)
    if (problem) return
    await sendCode(target)
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault()
    if (!sent) return
    const problem = sent.verificationToken ? null : checkCode(code)
    setCodeCheck(problem)
    if (problem) return
    const result = await save.run(async (client) => {
      const token = sent.verificationToken ?? (await client.verify({ verificationId: sent.verificationId, code: code.trim() })).verificationToken
      if (!sent.verificationToken) setSent({ ...sent, verificationToken: token })
      const contact = kind === 'email' ? { email: sent.address } : { phone_number: sent.address }
      await client.request('PATCH', '/v1/user/contact', { body: { ...contact, verification_token: token }, auth: true })
      await refreshSession(client)
    })
    if (result.ok) onSaved(sent.address)
  }

  if (!sent) {
    return (
      <form id={id} onSubmit={submitAddress} onKeyDown={escapeCancels(onCancel, send.pending)} noValidate className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/50">
        {kind === 'email' ? (
          <TextField
            label={label}
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder={t('accountHome.contact.emailPlaceholder')}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            autoFocus
            error={addressCheck ? t(addressCheck, PATTERN_VALUES) : null}
            hint={t('accountHome.contact.emailHint')}
          />
        ) : (
          <>
            <PhoneField label={label} value={address} onChange={setAddress} autoFocus error={addressCheck ? t(addressCheck, PATTERN_VALUES) : null} />
            <p className="text-xs text-slate-600 dark:text-slate-400">{t('accountHome.contact.phoneHint')}</p>
          </>
        )}
        {send.error ? <Alert tone="error">{send.error}</Alert> : null}
        {sendIn > 0 ? (
          <p role="status" className="text-sm text-slate-700 dark:text-slate-200" data-testid="contact-recently-sent">
            {t('auth.code.recentlySent')}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onCancel} disabled={send.pending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={send.pending} disabled={sendIn > 0}>
            {sendIn > 0 ? t('auth.code.sendIn', { seconds: sendIn }) : t('accountHome.contact.sendCode')}
          </Button>
        </div>
      </form>
    )
  }

  return (
    <form id={id} onSubmit={submitCode} onKeyDown={escapeCancels(onCancel, save.pending)} noValidate className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/50">
      <Alert tone="info">{t('accountHome.contact.codeSent', { address: sent.address, minutes: sent.expiresInMinutes })}</Alert>
      <TextField
        label={t('accountHome.contact.code')}
        value={code}
        onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={CODE_LENGTH}
        autoFocus
        error={codeCheck ? t(codeCheck, PATTERN_VALUES) : null}
      />
      {send.error ? <Alert tone="error">{send.error}</Alert> : null}
      {save.error ? <Alert tone="error">{save.error}</Alert> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap gap-1">
          <Button variant="ghost" onClick={() => void sendCode(sent.address)} disabled={resendIn > 0 || save.pending} loading={send.pending}>
            {resendIn > 0 ? t('accountHome.contact.resendIn', { seconds: resendIn }) : t('accountHome.contact.resend')}
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setSent(null)
              send.setError(null)
              save.setError(null)
            }}
            disabled={save.pending}
          >
            {kind === 'email' ? t('accountHome.contact.otherEmail') : t('accountHome.contact.otherPhone')}
          </Button>
        </div>
        <div className="flex gap-2">
          <Button variant="ghost" onClick={onCancel} disabled={save.pending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.pending}>
            {t('accountHome.contact.verifyAndSave')}
          </Button>
        </div>
      </div>
    </form>
  )
}
