import type { UserSession } from '@cumulus/protocol'
import type { IdentityClient } from '@cumulus/sdk'
import { useCallback } from 'react'
import { useIdentityResource } from '../../session/use-identity-resource'

/**
 * This device first, then the others as the server ordered them (most recently active first):
 * the row people look for first is the one they are holding, and it is the one without a
 * Sign out button.
 */
export function currentFirst(sessions: UserSession[]): UserSession[] {
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)]
}

const loadSessions = async (client: IdentityClient) => currentFirst(await client.sessions())

/**
 * Where the signed-in user is signed in (GET /v1/user/sessions); see useIdentityResource.
 * `forget` drops a session once it is signed out; `keepOnlyCurrent` once every other one is.
 */
export function useUserSessions() {
  const { state, reloading, reload, update } = useIdentityResource(loadSessions)
  const forget = useCallback((sessionId: string) => update((sessions) => sessions.filter((s) => s.id !== sessionId)), [update])
  const keepOnlyCurrent = useCallback(() => update((sessions) => sessions.filter((s) => s.current)), [update])
  return { state, reloading, reload, forget, keepOnlyCurrent }
}
