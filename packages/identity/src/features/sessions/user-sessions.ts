import { AppError, GenericErrors, type SessionDevice, type UserSession } from '@cumulus/protocol'
import Bowser from 'bowser'
import type { IdentityDeps } from '../../deps.js'
import type { LiveSession, SessionOrigin } from '../../stores/session-store.js'
import { clientInfo } from '../oauth/authorize.js'
import type { AuthContext } from '../tokens/sessions.js'

type Deps = Pick<IdentityDeps, 'clock' | 'clients' | 'sessions'>

/**
 * At most this many sessions are listed. An account holds a few; one with more (a script that
 * signs in in a loop) still gets a bounded reply, and "sign out everywhere else" ends them all.
 */
export const MAX_LISTED_SESSIONS = 200

const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'tv'])

/**
 * What a session runs on, for people to recognise it: the client's own device name, and the
 * browser and OS its User-Agent names (read by bowser, a kept UA parser). Nothing here decides
 * anything: it is what the device said about itself.
 */
export function describeDevice(origin: SessionOrigin): SessionDevice {
  const parsed = origin.userAgent ? Bowser.parse(origin.userAgent) : null
  const os = [parsed?.os.name ?? '', parsed?.os.versionName ?? parsed?.os.version ?? ''].filter(Boolean).join(' ')
  const type = parsed?.platform.type ?? ''
  return { name: origin.deviceName, browser: parsed?.browser.name ?? '', os, type: DEVICE_TYPES.has(type) ? type : '' }
}

/** GET /v1/user/sessions: where the user is signed in, this session first, then the most recently active. */
export async function listUserSessions(deps: Deps, auth: AuthContext): Promise<{ data: UserSession[] }> {
  const live = await deps.sessions.listLive(auth.userId, deps.clock.nowMs(), MAX_LISTED_SESSIONS)
  const sessions = [...live.filter((s) => s.id === auth.sessionId), ...live.filter((s) => s.id !== auth.sessionId)]
  const clients = new Map<string, UserSession['client']>()
  for (const clientId of new Set(sessions.map((s) => s.clientId))) {
    const client = await deps.clients.find(clientId)
    // A client removed since still shows, by its id, so its sessions can be ended.
    clients.set(clientId, client ? clientInfo(client) : { client_id: clientId, name: clientId, logo: '' })
  }
  return { data: sessions.map((session) => view(session, clients.get(session.clientId)!, session.id === auth.sessionId)) }
}

function view(session: LiveSession, client: UserSession['client'], current: boolean): UserSession {
  return {
    id: session.id,
    client,
    device: describeDevice(session.origin),
    ip: session.origin.ip,
    created_at: new Date(session.createdAtMs).toISOString(),
    last_active_at: new Date(session.refreshedAtMs).toISOString(),
    current,
  }
}

/**
 * DELETE /v1/user/sessions/{id}: signs that session out at once (its refresh and access tokens
 * stop working on every node). Only the caller's own live sessions: any other id, whoever's it
 * is, answers not_found alike, so the reply tells nothing about other accounts.
 */
export async function endUserSession(deps: Deps, auth: AuthContext, sessionId: string): Promise<Record<string, never>> {
  const ended = await deps.sessions.revokeOwn(auth.userId, sessionId, 'signed_out_remotely', deps.clock.nowMs())
  if (!ended) throw new AppError(GenericErrors.not_found, { description: 'no such live session of this account' })
  return {}
}

/** DELETE /v1/user/sessions/others: signs out every session of the user but the caller's own. */
export async function endOtherUserSessions(deps: Deps, auth: AuthContext): Promise<{ ended: number }> {
  const ended = await deps.sessions.revokeAllForUser(auth.userId, 'signed_out_remotely', deps.clock.nowMs(), auth.sessionId)
  return { ended }
}
