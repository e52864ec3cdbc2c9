import type { IdentityClient, SendVerificationInput } from '@cumulus/sdk'
import { useState } from 'react'
import { checkEmail, checkPhone, type PatternMessageKey } from '../../forms/patterns'
import type { ContactKind } from './contact-switch'
import type { CallResult } from './use-identity-call'

/** The server sends at most one code per address per minute (identity.md); the resend button waits as long. */
export const RESEND_COOLDOWN_SECONDS = 60

export interface SentCode {
  /** The address the code went to (e-mail trimmed, or E.164). */
  address: string
  verificationId: string
  expiresInSeconds: number
  /** When the resend button may be pressed again, epoch ms. */
  resendAtMs: number
}

type SendCall = <T>(name: 'send', run: (client: IdentityClient) => Promise<T>) => Promise<CallResult<T>>

/**
 * The address-and-code part of sign-up, sign-in by code and password reset: which kind of
 * address, its value, its pattern check, and the code sent to it. A code belongs to the address
 * it was sent to: editing the address forgets it, so a code is never paired with another address.
 */
export function useVerification(call: SendCall, { usage, target }: Pick<SendVerificationInput, 'usage' | 'target'>) {
  const [kind, setKind] = useState<ContactKind>('email')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [sent, setSent] = useState<SentCode | null>(null)
  const [showAddressError, setShowAddressError] = useState(false)

  const address = kind === 'email' ? email.trim() : phone
  const addressError: PatternMessageKey | null = kind === 'email' ? checkEmail(email) : checkPhone(phone)
  const current = sent && sent.address === address ? sent : null

  /** Checks the address and sends a code to it; resolves whether one was sent. */
  async function send(): Promise<boolean> {
    setShowAddressError(true)
    if (addressError) return false
    const to = kind === 'email' ? { email: address } : { phoneNumber: address }
    const result = await call('send', (client) => client.sendVerification({ ...to, usage, target }))
    if (result.ok) {
      setSent({ address, verificationId: result.value.verificationId, expiresInSeconds: result.value.expiresIn, resendAtMs: Date.now() + RESEND_COOLDOWN_SECONDS * 1000 })
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
    send,
  }
}

export type Verification = ReturnType<typeof useVerification>
