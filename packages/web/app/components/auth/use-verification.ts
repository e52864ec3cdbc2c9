import { AccountErrors, GenericErrors } from '@cumulus/protocol'
import { type IdentityClient, type SendVerificationInput, isIdentityError } from '@cumulus/sdk'
import { useEffect, useState } from 'react'
import { checkEmail, checkPhone, type PatternMessageKey } from '../../forms/patterns'
import { useT } from '../../i18n/use-locale'
import type { ContactKind } from './contact-switch'
import type { CallResult } from './use-identity-call'
import { forgetSentCode, keepSentCode, keptSentCode } from './kept-code'

/** The server sends at most one code per address per minute (identity.md); the resend button waits as long. */
export const RESEND_COOLDOWN_SECONDS = 60

export interface SentCode {
  /** The address the code went to (e-mail trimmed, or E.164). */
  address: string
  verificationId: string
  /** When the code stops being accepted, epoch ms. */
  expiresAtMs: number
  /** When the resend button may be pressed again, epoch ms. */
  resendAtMs: number
}

/** A send the server refused for now (resource_exhausted with Retry-After): the address waits until then. */
interface Wait {
  address: string
  untilMs: number
}

/**
 * The longest wait the send button counts down. The per-address resend interval (a minute) is
 * what a second tab or device meets; a longer one is an hourly or daily budget, which the
 * catalogue's message explains better than a countdown of thousands of seconds.
 */
const COUNTED_WAIT_MAX_SECONDS = 120

/** The seconds to count down before another send, when `error` is a refusal worth counting down (see above); null otherwise. */
export function countedWaitSeconds(error: unknown): number | null {
  if (!isIdentityError(error) || !error.is(GenericErrors.resource_exhausted)) return null
  const seconds = error.retryAfterSeconds
  return seconds && seconds > 0 && seconds <= COUNTED_WAIT_MAX_SECONDS ? seconds : null
}

type SendCall = <T>(name: 'send', run: (client: IdentityClient) => Promise<T>) => Promise<CallResult<T>>

/**
 * The address-and-code part of sign-up, sign-in by code and password reset: which kind of
 * address, its value, its pattern check, and the code sent to it. A code belongs to the address
 * it was sent to: editing the address forgets it, so a code is never paired with another address.
 *
 * A sent code outlives a reload of the page (kept-code.ts): the code in the user's inbox still
 * works, and sending again would be refused for a minute anyway. When the server does refuse a
 * send for now, the button counts down the wait it asked for.
 */
export function useVerification(
  call: SendCall,
  { usage, target, setError }: Pick<SendVerificationInput, 'usage' | 'target'> & {
    /**
     * The form's error: cleared for a refusal the code field explains itself (not shown twice),
     * or worded for this form where the catalogue's text is for another.
     */
    setError?: (message: string | null) => void
  },
) {
  const { t } = useT()
  const [kind, setKind] = useState<ContactKind>('email')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [sent, setSent] = useState<SentCode | null>(null)
  const [wait, setWait] = useState<Wait | null>(null)
  const [showAddressError, setShowAddressError] = useState(false)

  // After hydration (the server renders no code): a code this tab was sent before a reload.
  useEffect(() => {
    const kept = keptSentCode(usage, Date.now())
    if (!kept) return
    setKind(kept.kind)
    if (kept.kind === 'email') setEmail(kept.code.address)
    else setPhone(kept.code.address)
    setSent(kept.code)
  }, [usage])

  const address = kind === 'email' ? email.trim() : phone
  const addressError: PatternMessageKey | null = kind === 'email' ? checkEmail(email) : checkPhone(phone)
  const current = sent && sent.address === address ? sent : null
  const waitUntilMs = Math.max(current?.resendAtMs ?? 0, wait && wait.address === address ? wait.untilMs : 0)

  /** Checks the address and sends a code to it; resolves whether one was sent. */
  async function send(): Promise<boolean> {
    setShowAddressError(true)
    if (addressError) return false
    const to = kind === 'email' ? { email: address } : { phoneNumber: address }
    const result = await call('send', (client) => client.sendVerification({ ...to, usage, target }))
    if (result.ok) {
      const nowMs = Date.now()
      const code: SentCode = { address, verificationId: result.value.verificationId, expiresAtMs: nowMs + result.value.expiresIn * 1000, resendAtMs: nowMs + RESEND_COOLDOWN_SECONDS * 1000 }
      setSent(code)
      setWait(null)
      keepSentCode(usage, kind, code)
    } else if (countedWaitSeconds(result.error) !== null) {
      // A code went to this address moments ago from elsewhere: the field says so and counts down.
      setWait({ address, untilMs: Date.now() + countedWaitSeconds(result.error)! * 1000 })
      setError?.(null)
    } else if (isIdentityError(result.error) && result.error.is(AccountErrors.user_not_exist)) {
      // The catalogue says "wrong account or password" (it is shared with password sign-in); a
      // code sent to an address with no account has no password in it.
      setError?.(t('auth.code.noAccount'))
    }
    return result.ok
  }

  return {
    kind,
    setKind,
    email,
    setEmail,
    phone,
    setPhone,
    address,
    /** The address as the SDK's contact input. */
    contact: kind === 'email' ? { email: address } : { phoneNumber: address },
    /** The pattern problem to show (only once the user tried to send or submit). */
    addressError: showAddressError ? addressError : null,
    /** Whether the address passes the pattern check; also reveals its error. */
    validateAddress(): boolean {
      setShowAddressError(true)
      return addressError === null
    },
    sent: current,
    /** When the send button may be pressed again for this address (epoch ms), or null. */
    resendAtMs: waitUntilMs > 0 ? waitUntilMs : null,
    /** The server refused a send to this address because a code went to it moments ago (not from this page). */
    sentElsewhere: !current && wait !== null && wait.address === address && wait.untilMs > Date.now(),
    send,
    /** The code has been used (the form succeeded): a reload must not offer it again. */
    forget(): void {
      forgetSentCode(usage)
    },
  }
}

export type Verification = ReturnType<typeof useVerification>
