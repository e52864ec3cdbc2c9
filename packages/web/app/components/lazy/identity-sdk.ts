import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { defaultStorage, IdentityClient } from '@cumulus/sdk'
import { presentCaptcha } from '../../captcha/captcha-store'
import { watchCredentials } from '../../session/credentials-watch'
import { refreshSession } from '../../session/session-store'

/**
 * The browser's identity client (session/identity-client.ts creates it once, with this chunk).
 * The web app is served from the same origin as the APIs, so the SDK talks to
 * `location.origin`; credentials live in localStorage under the client id.
 */
export function createIdentityClient(locale: string): IdentityClient {
  // When the SDK drops the credentials (the server refused the refresh token: signed out from
  // another device, say), the page learns it is signed out, and protected pages go to sign-in.
  const storage = watchCredentials(defaultStorage(), () => void refreshSession(client))
  const client: IdentityClient = new IdentityClient({ clientId: WEB_CLIENT_ID, origins: [window.location.origin], locale, onCaptcha: presentCaptcha, storage })
  return client
}
