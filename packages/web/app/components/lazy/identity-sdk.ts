import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { IdentityClient } from '@cumulus/sdk'
import { presentCaptcha } from '../../captcha/captcha-store'

/**
 * The browser's identity client (session/identity-client.ts creates it once, with this chunk).
 * The web app is served from the same origin as the APIs, so the SDK talks to
 * `location.origin`; credentials live in localStorage under the client id.
 */
export function createIdentityClient(locale: string): IdentityClient {
  return new IdentityClient({ clientId: WEB_CLIENT_ID, origins: [window.location.origin], locale, onCaptcha: presentCaptcha })
}
