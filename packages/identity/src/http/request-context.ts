import { AppError, GenericErrors, HEADERS, OAuthErrors } from '@cumulus/protocol'
import type { FastifyRequest } from 'fastify'
import type { RegisteredClient } from '../config.js'
import { safeEqual } from '../lib/secrets.js'

/** Where the caller is: used for lockouts, captcha risk and session records. */
export interface CallerContext {
  ip: string
  deviceId: string
}

const MAX_DEVICE_ID_LENGTH = 128

/**
 * A device id as stored and compared: control characters removed (PostgreSQL text cannot hold
 * NUL), trimmed and capped; '' when absent or not a string.
 */
export function normalizeDeviceId(raw: unknown): string {
  return typeof raw === 'string' ? raw.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_DEVICE_ID_LENGTH) : ''
}

export function callerContext(request: FastifyRequest): CallerContext {
  return { ip: request.ip, deviceId: normalizeDeviceId(request.headers[HEADERS.deviceId]) }
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

export class ClientRegistry {
  private readonly byId: Map<string, RegisteredClient>

  constructor(clients: RegisteredClient[]) {
    this.byId = new Map(clients.map((c) => [c.clientId, c]))
  }

  find(clientId: string): RegisteredClient | null {
    return this.byId.get(clientId) ?? null
  }

  /**
   * The registered client a request speaks for. Missing → invalid_argument naming client_id;
   * unknown → unauthorized_client (4122). When `secret` is given or the client is confidential,
   * the secret must match.
   */
  require(clientId: string | undefined, options: { secret?: string | undefined; checkSecret?: boolean } = {}): RegisteredClient {
    if (!clientId) throw new AppError(GenericErrors.invalid_argument, { description: 'client_id is required', metadata: { field: 'client_id' } })
    const client = this.byId.get(clientId)
    if (!client) throw new AppError(OAuthErrors.unauthorized_client, { description: 'unknown client_id' })
    if (options.checkSecret && client.clientSecret !== undefined) {
      if (options.secret === undefined || !safeEqual(options.secret, client.clientSecret)) {
        throw new AppError(OAuthErrors.unauthorized_client, { description: 'client authentication failed' })
      }
    }
    return client
  }

  all(): RegisteredClient[] {
    return [...this.byId.values()]
  }
}
