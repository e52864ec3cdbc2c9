import { AppError, GenericErrors, HEADERS, OAuthErrors } from '@cumulus/protocol'
import type { FastifyRequest } from 'fastify'
import type { RegisteredClient } from '../config.js'
import { hashSecret, safeEqual } from '../lib/secrets.js'
import type { OAuthStore } from '../stores/oauth-store.js'
import type { SessionOrigin } from '../stores/session-store.js'

/** Where the caller is: used for lockouts, captcha risk and session records. */
export interface CallerContext {
  ip: string
  deviceId: string
  /** What a session started by this request records of where it signed in from. */
  origin: SessionOrigin
}

const MAX_DEVICE_ID_LENGTH = 128

/**
 * A device id as stored and compared: control characters removed (PostgreSQL text cannot hold
 * NUL), trimmed and capped; '' when absent or not a string.
 */
export function normalizeDeviceId(raw: unknown): string {
  return typeof raw === 'string' ? raw.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_DEVICE_ID_LENGTH) : ''
}

const MAX_DEVICE_NAME_LENGTH = 128
const MAX_USER_AGENT_LENGTH = 512

/**
 * A header's text as people will read it in the list of signed-in devices: UTF-8 when its bytes
 * are (Node reads header bytes as Latin-1), without control or bidirectional-override characters
 * (they could make one device's name read as another's), trimmed and capped.
 */
export function displayHeader(raw: unknown, maxLength: number): string {
  if (typeof raw !== 'string') return ''
  const utf8 = Buffer.from(raw, 'latin1').toString('utf8')
  const text = utf8.includes('\uFFFD') ? raw : utf8
  return Array.from(text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim())
    .slice(0, maxLength)
    .join('')
}

/** The device fields a sign-in passes on to the session it starts. */
export function deviceOf(caller: CallerContext): { deviceId: string; origin: SessionOrigin } {
  return { deviceId: caller.deviceId, origin: caller.origin }
}

export function callerContext(request: FastifyRequest): CallerContext {
  const headers = request.headers
  let origin: SessionOrigin | undefined
  return {
    ip: request.ip,
    deviceId: normalizeDeviceId(headers[HEADERS.deviceId]),
    // Read only by the calls that start a session: the lockout and captcha checks, and the
    // refresh grant, need the address alone and do not pay for decoding three headers.
    get origin(): SessionOrigin {
      origin ??= {
        deviceName: displayHeader(headers[HEADERS.deviceName], MAX_DEVICE_NAME_LENGTH) || displayHeader(headers[HEADERS.deviceModel], MAX_DEVICE_NAME_LENGTH),
        userAgent: displayHeader(headers['user-agent'], MAX_USER_AGENT_LENGTH),
        ip: request.ip,
      }
      return origin
    },
  }
}

function stringField(source: unknown, key: string): string | undefined {
  if (source && typeof source === 'object') {
    const value = (source as Record<string, unknown>)[key]
    if (typeof value === 'string' && value !== '') return value
  }
  return undefined
}

/** `client_id` may come from the body, the query string or `x-client-id` (identity.md). */
export function clientIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers[HEADERS.clientId]
  return stringField(request.body, 'client_id') ?? stringField(request.query, 'client_id') ?? (typeof header === 'string' && header !== '' ? header : undefined)
}

/** Clients registered with the CLI are looked up in the database, and remembered this long per node. */
const STORED_CLIENT_CACHE_MS = 30_000
const STORED_CLIENT_CACHE_SIZE = 1_000
/** The ids `cumulus client add` accepts. */
const STORED_CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The registered clients: those in the configuration, then those the CLI stored in the database
 * (`cumulus client add`). A stored client is remembered for 30 s per node, so one removed with the
 * CLI stops working everywhere within that.
 */
export class ClientRegistry {
  private readonly byId: Map<string, RegisteredClient>
  private readonly cached = new Map<string, { client: RegisteredClient | null; until: number }>()

  constructor(
    clients: RegisteredClient[],
    private readonly stored: Pick<OAuthStore, 'findClient'> | null = null,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.byId = new Map(clients.map((c) => [c.clientId, c]))
  }

  async find(clientId: string): Promise<RegisteredClient | null> {
    const configured = this.byId.get(clientId)
    // Only a well-formed id reaches the database (no NUL, which PostgreSQL text cannot hold).
    if (configured || !this.stored || !STORED_CLIENT_ID.test(clientId)) return configured ?? null
    const now = this.nowMs()
    const hit = this.cached.get(clientId)
    if (hit && hit.until > now) return hit.client
    const client = await this.stored.findClient(clientId)
    if (this.cached.size >= STORED_CLIENT_CACHE_SIZE) this.cached.delete(this.cached.keys().next().value!)
    // Unknown ids are not remembered: a flood of random ids must not push the real ones out.
    if (client) this.cached.set(clientId, { client, until: now + STORED_CLIENT_CACHE_MS })
    return client
  }

  /** Forgets a stored client at once on this node (after the CLI removed it in-process, in tests). */
  forget(clientId: string): void {
    this.cached.delete(clientId)
  }

  /**
   * The registered client a request speaks for. Missing → invalid_argument naming client_id;
   * unknown → unauthorized_client (4122). When `secret` is given or the client is confidential,
   * the secret must match.
   */
  async require(clientId: string | undefined, options: { secret?: string | undefined; checkSecret?: boolean } = {}): Promise<RegisteredClient> {
    if (!clientId) throw new AppError(GenericErrors.invalid_argument, { description: 'client_id is required', metadata: { field: 'client_id' } })
    const client = await this.find(clientId)
    if (!client) throw new AppError(OAuthErrors.unauthorized_client, { description: 'unknown client_id' })
    if (options.checkSecret && !secretMatches(client, options.secret)) {
      throw new AppError(OAuthErrors.unauthorized_client, { description: 'client authentication failed' })
    }
    return client
  }

  /** The configured clients (the CLI lists the stored ones itself). */
  all(): RegisteredClient[] {
    return [...this.byId.values()]
  }
}

/** Whether `secret` authenticates the client; a client without a secret (public) needs none. */
export function secretMatches(client: RegisteredClient, secret: string | undefined): boolean {
  if (client.clientSecret !== undefined) return secret !== undefined && safeEqual(secret, client.clientSecret)
  if (client.clientSecretHash !== undefined) return secret !== undefined && safeEqual(hashSecret(secret), client.clientSecretHash)
  return true
}
