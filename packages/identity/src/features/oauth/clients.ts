import { AppError, GenericErrors, OAUTH_SCOPES } from '@cumulus/protocol'
import type { ClientType, RegisteredClient } from '../../config.js'
import type { IdentityDeps } from '../../deps.js'
import { hashSecret, randomSecret } from '../../lib/secrets.js'
import { UniqueViolationError } from '../../stores/errors.js'
import { AUTHORIZATION_CODE_GRANT } from './authorize.js'
import { DEVICE_CODE_GRANT } from './device.js'

type Deps = Pick<IdentityDeps, 'clock' | 'clients' | 'oauth'>

export const CLIENT_TYPES: readonly ClientType[] = ['public', 'confidential', 'first_party']
export const CLIENT_GRANT_TYPES = ['refresh_token', AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT] as const
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/

export interface NewClientInput {
  clientId: string
  name: string
  type: ClientType
  redirectUris: string[]
  grantTypes?: string[] | undefined
  scopes?: string[] | undefined
  logo?: string | undefined
}

function invalid(field: string, description: string): AppError {
  return new AppError(GenericErrors.invalid_argument, { description, metadata: { field } })
}

/** A redirect URI a client may register: absolute, no fragment; http only for loopback (RFC 8252 7.3), or an app's own scheme. */
export function checkRedirectUri(raw: string): void {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw invalid('redirect_uri', `${raw.slice(0, 100)} is not an absolute URL`)
  }
  if (url.hash) throw invalid('redirect_uri', `${raw.slice(0, 100)} must not have a fragment`)
  if (url.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw invalid('redirect_uri', `${raw.slice(0, 100)}: plain http is only for loopback addresses; use https`)
  if (url.protocol === 'javascript:' || url.protocol === 'data:') throw invalid('redirect_uri', `${raw.slice(0, 100)} has a scheme that cannot be a redirect`)
}

/**
 * Registers a client (`cumulus client add`). A confidential client gets a secret, shown once and
 * stored only as a hash; public and first-party clients get none (public ones must use PKCE).
 */
export async function addClient(deps: Deps, input: NewClientInput): Promise<{ client: RegisteredClient; secret: string | undefined }> {
  if (!CLIENT_ID.test(input.clientId)) throw invalid('client_id', 'a client id is 1 to 128 letters, digits or . _ : -')
  if (!CLIENT_TYPES.includes(input.type)) throw invalid('type', `type must be one of ${CLIENT_TYPES.join(', ')}`)
  const name = input.name.trim()
  if (name === '' || name.length > 100) throw invalid('name', 'a name is 1 to 100 characters')
  for (const uri of input.redirectUris) checkRedirectUri(uri)
  const grantTypes = input.grantTypes && input.grantTypes.length > 0 ? [...new Set(input.grantTypes)] : ['refresh_token', AUTHORIZATION_CODE_GRANT]
  for (const g of grantTypes) if (!(CLIENT_GRANT_TYPES as readonly string[]).includes(g)) throw invalid('grant_types', `unknown grant type ${g}; use ${CLIENT_GRANT_TYPES.join(', ')}`)
  if (grantTypes.includes(AUTHORIZATION_CODE_GRANT) && input.redirectUris.length === 0) throw invalid('redirect_uri', 'the authorization code flow needs at least one redirect URI')
  const scopes = input.scopes && input.scopes.length > 0 ? [...new Set(input.scopes)] : [...OAUTH_SCOPES]
  for (const s of scopes) if (!(OAUTH_SCOPES as readonly string[]).includes(s)) throw invalid('scopes', `unknown scope ${s}; use ${OAUTH_SCOPES.join(', ')}`)
  if (deps.clients.all().some((c) => c.clientId === input.clientId)) throw new AppError(GenericErrors.already_exists, { description: `${input.clientId} is a configured client` })
  const secret = input.type === 'confidential' ? randomSecret() : undefined
  try {
    await deps.oauth.createClient({
      clientId: input.clientId,
      name,
      type: input.type,
      secretHash: secret ? hashSecret(secret) : null,
      redirectUris: input.redirectUris,
      grantTypes,
      scopes,
      logo: input.logo ?? '',
      createdAtMs: deps.clock.nowMs(),
    })
  } catch (error) {
    if (error instanceof UniqueViolationError) throw new AppError(GenericErrors.already_exists, { description: `a client ${input.clientId} exists already` })
    throw error
  }
  return { client: (await deps.oauth.findClient(input.clientId))!, secret }
}

/** Every client: the configured ones (marked), then the registered ones. */
export async function listClients(deps: Deps): Promise<{ client: RegisteredClient; source: 'config' | 'registered' }[]> {
  const stored = await deps.oauth.listClients()
  return [...deps.clients.all().map((client) => ({ client, source: 'config' as const })), ...stored.map((client) => ({ client, source: 'registered' as const }))]
}

/** Removes a registered client; its users' sessions keep working until they end (they are the users', not the client's). */
export async function removeClient(deps: Deps, clientId: string): Promise<void> {
  if (deps.clients.all().some((c) => c.clientId === clientId)) throw new AppError(GenericErrors.failed_precondition, { description: `${clientId} is configured (CUMULUS_CLIENTS); remove it there` })
  if (!(await deps.oauth.removeClient(clientId))) throw new AppError(GenericErrors.not_found, { description: `no registered client ${clientId}` })
  deps.clients.forget(clientId)
}
