import { AccountErrors, CAPTCHA_REJECT, type CaptchaInitReply, GenericErrors } from '@cumulus/protocol'
import { IdentityError } from './errors.js'
import type { CaptchaChallenge, CaptchaResult } from './options.js'
import { type KeyValueStorage, readJson, storageKeys, writeJson } from './storage.js'
import type { Transport } from './transport.js'

/** Spec 3: the stored captcha token of a client. `expires_at` is epoch milliseconds. */
export interface CaptchaTokenInfo {
  action: string
  token: string
  expires_at: number
}

export const CAPTCHA_INIT_PATH = '/v1/shield/captcha/init'

/** Spec 7: at most this many token refreshes for one protected call. */
export const CAPTCHA_MAX_REFRESHES = 3

/** The default action of a protected call: `METHOD:/path`, without the query. */
export function captchaAction(method: string, path: string): string {
  const bare = path.split('?')[0] ?? path
  return `${method.toUpperCase()}:${bare.startsWith('/') ? bare : `/${bare}`}`
}

/** Spec 5: a captcha token is expired when `expires_at` is missing or passed. */
export function isCaptchaExpired(info: Partial<CaptchaTokenInfo> | null | undefined, nowMs: number): boolean {
  return !info || !info.token || typeof info.expires_at !== 'number' || !(info.expires_at > nowMs)
}

/** Spec 7: adds `redirect_uri` and `state` to a challenge URL, as the captcha frame needs. */
export function withCaptchaRedirect(url: string, { redirectUri, state }: { redirectUri: string; state?: string }): string {
  const target = new URL(url)
  target.searchParams.set('redirect_uri', redirectUri)
  if (state !== undefined) target.searchParams.set('state', state)
  return target.toString()
}

/** A captcha error a fresh token may cure: captcha_required, or captcha_invalid without CAPTCHA_REJECT. */
export function isCaptchaRetryable(error: unknown): boolean {
  if (!(error instanceof IdentityError)) return false
  if (error.is(AccountErrors.captcha_required)) return true
  return error.is(AccountErrors.captcha_invalid) && error.detailReason !== CAPTCHA_REJECT
}

export interface CaptchaManagerDeps {
  clientId: string
  storage: KeyValueStorage
  transport: Transport
  deviceId: () => string
  onCaptcha: ((url: string, challenge: CaptchaChallenge) => Promise<CaptchaResult | null | undefined>) | undefined
  /** Told when a challenge is shown (analytics). */
  onChallenge?: (action: string) => void
}

/** The per-client captcha token cache and the captcha init call (spec 3, 4, 7). */
export class CaptchaManager {
  readonly #deps: CaptchaManagerDeps
  readonly #key: string

  constructor(deps: CaptchaManagerDeps) {
    this.#deps = deps
    this.#key = storageKeys(deps.clientId).captcha
  }

  /** The stored token info, expired or not; null when none. */
  stored(): CaptchaTokenInfo | null {
    return readJson<CaptchaTokenInfo>(this.#deps.storage, this.#key)
  }

  /**
   * A token for one protected call of `action`. The server spends a token on the call it
   * authorises (decision 014), so a token is handed out once: it is marked spent in storage as
   * it is taken, before the call sends it, whatever the reply; the next call, or a call running
   * beside this one in another tab sharing the storage, gets its own from captcha init. A stored
   * token not yet spent is taken when it is for that action and unexpired (spec 4, 5) and `force`
   * is not set. Captcha init may need the user to pass a challenge through `onCaptcha`. Rejects
   * `cancelled` (1) when the challenge is closed without a result, `captcha_required` (4001) when
   * a challenge is needed and there is no `onCaptcha`.
   */
  async token(action: string, meta: Record<string, unknown>, { force = false }: { force?: boolean } = {}): Promise<string> {
    const stored = this.stored()
    if (!force && stored && stored.action === action && !isCaptchaExpired(stored, Date.now())) return this.#take(stored)
    const reply = await this.#deps.transport.send<CaptchaInitReply>({
      method: 'POST',
      path: CAPTCHA_INIT_PATH,
      body: {
        client_id: this.#deps.clientId,
        action,
        device_id: this.#deps.deviceId(),
        // The previous token, spent or not, tells the risk engine this is a known caller.
        captcha_token: stored?.token ?? '',
        meta,
      },
    })
    if (typeof reply.captcha_token === 'string' && reply.captcha_token !== '') {
      return this.#take({ action, token: reply.captcha_token })
    }
    if (typeof reply.url !== 'string' || reply.url === '') {
      throw IdentityError.of(GenericErrors.internal, 'captcha init answered neither a token nor a url', { status: 200 })
    }
    const result = await this.#challenge(reply.url, { action, expiresIn: reply.expires_in })
    return this.#take({ action, token: result.captchaToken })
  }

  /** Forgets the stored token. Idempotent. */
  clear(): void {
    this.#deps.storage.removeItem(this.#key)
  }

  async #challenge(url: string, challenge: CaptchaChallenge): Promise<CaptchaResult> {
    const { onCaptcha } = this.#deps
    if (!onCaptcha) throw IdentityError.of(AccountErrors.captcha_required, 'a captcha challenge is needed and no onCaptcha handler is set', { status: 0 })
    this.#deps.onChallenge?.(challenge.action)
    let result: CaptchaResult | null | undefined
    try {
      result = await onCaptcha(url, challenge)
    } catch (cause) {
      throw IdentityError.of(GenericErrors.cancelled, 'captcha closed without a result', { cause, status: 0 })
    }
    if (!result || typeof result.captchaToken !== 'string' || result.captchaToken === '') {
      throw IdentityError.of(GenericErrors.cancelled, 'captcha closed without a result', { status: 0 })
    }
    return result
  }

  /**
   * Hands a token to one call and stores it spent (`expires_at` 0: expired, spec 5) in the same
   * synchronous step, so no other call (in this tab or another on the same storage) can take it
   * in between. It stays stored as the "previous token" for the next init. Its lifetime from
   * init (spec 4: `expires_in` minus 30 s) no longer matters: it is used once, now.
   */
  #take({ action, token }: { action: string; token: string }): string {
    writeJson(this.#deps.storage, this.#key, { action, token, expires_at: 0 } satisfies CaptchaTokenInfo)
    return token
  }
}
