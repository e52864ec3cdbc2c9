import { AppError, DEFAULT_SCOPE, OAUTH_SCOPES, OAuthErrors, type OAuthScope, type ScopeDescription, scopeDescription } from '@cumulus/protocol'
import type { RegisteredClient } from '../../config.js'

const KNOWN = new Set<string>(OAUTH_SCOPES)

export function isKnownScope(scope: string): scope is OAuthScope {
  return KNOWN.has(scope)
}

/** The scopes a client may ask for: its registered ones, or every scope the server knows. */
export function clientScopes(client: RegisteredClient): string[] {
  return client.scopes && client.scopes.length > 0 ? client.scopes : [...OAUTH_SCOPES]
}

/**
 * The scopes of a request, checked against what the server knows and the client may ask for;
 * without `scope`, the product's default scopes the client may have. invalid_scope (4125) otherwise.
 */
export function requestedScopes(client: RegisteredClient, scope: string | undefined): string[] {
  const allowed = new Set(clientScopes(client))
  const asked = (scope ?? '').split(' ').filter(Boolean)
  if (asked.length === 0) {
    const defaults = DEFAULT_SCOPE.split(' ').filter((s) => allowed.has(s))
    if (defaults.length === 0) throw new AppError(invalidScope(), { description: 'scope is required for this client', metadata: { field: 'scope' } })
    return defaults
  }
  for (const s of asked) {
    if (!isKnownScope(s)) throw new AppError(invalidScope(), { description: `unknown scope ${s.slice(0, 64)}`, metadata: { field: 'scope' } })
    if (!allowed.has(s)) throw new AppError(invalidScope(), { description: `this client may not ask for scope ${s}`, metadata: { field: 'scope' } })
  }
  return [...new Set(asked)]
}

function invalidScope() {
  return OAuthErrors.invalid_scope
}

export function describeScopes(scopes: readonly string[], locale: string | null | undefined): ScopeDescription[] {
  return scopes.filter(isKnownScope).map((id) => ({ id, description: scopeDescription(id, locale) }))
}
