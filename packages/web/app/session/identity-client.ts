import type { IdentityClient, UserInfo } from '@cumulus/sdk'
import { onDemand } from '../components/lazy/on-demand'
import { isSessionStorageKey } from './session-store'

/** The SDK and the code that creates the client: fetched when the page first needs them. */
const sdk = onDemand(() => import('../components/lazy/identity-sdk'))

let client: IdentityClient | null = null
let standIn: IdentityClient | null = null
let currentLocale = 'en-US'

/**
 * The browser's one identity client, created when the SDK's chunk has arrived, in the latest
 * locale asked for.
 */
function loadIdentityClient(locale: string): Promise<IdentityClient> {
  currentLocale = locale
  return sdk.load().then(({ createIdentityClient }) => {
    if (!client) client = createIdentityClient(currentLocale)
    else if (client.locale !== currentLocale) client.setLocale(currentLocale)
    return client
  })
}

/**
 * The browser's one identity client (components/lazy/identity-sdk.ts creates it). Credentials live in
 * localStorage under the client id; browser only: the server renders pages without a session
 * (it lives in the browser's storage).
 *
 * The SDK is not part of the first page load. Until it has arrived this returns a stand-in with
 * the client's interface: each call fetches the SDK and goes to the real client, except the
 * session start-up of a browser that holds nothing of this client (no stored credentials,
 * accounts or device id, not in the Android app), which resolves signed out at once, as the SDK
 * would. Once the SDK is there, the stand-in forwards everything to the real client.
 */
export function getIdentityClient(locale: string): IdentityClient {
  if (typeof window === 'undefined') throw new Error('getIdentityClient is browser-only')
  currentLocale = locale
  if (!client) return (standIn ??= createStandIn())
  if (client.locale !== locale) client.setLocale(locale)
  return client
}

/** Whether starting the session needs the SDK: something of this client is stored, or the Android host may sign in. */
function sessionStartNeedsSdk(): boolean {
  if ('CumulusAndroid' in globalThis) return true
  try {
    const storage = window.localStorage
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index)
      if (key !== null && isSessionStorageKey(key)) return true
    }
    return false
  } catch {
    // Storage that cannot be read: let the SDK decide.
    return true
  }
}

/** What the SDK's `initialize()` and `userInfo()` give when nothing is stored: everything empty, signed out. */
const SIGNED_OUT: UserInfo = Object.freeze({
  sessionId: '',
  avatar: '',
  nickname: '',
  username: '',
  userNo: '',
  userId: '',
  deviceId: '',
  phoneNumber: '',
  email: '',
  isLogin: false,
  isVip: false,
  vipType: '',
  vipLevel: 0,
  vipIcon: '',
  vipExpires: '',
  isYear: false,
  curUser: null,
})

/** Calls that go to the real client once the SDK has arrived. */
const FORWARDED = [
  'request',
  'signIn',
  'signInWithCode',
  'sendVerification',
  'verify',
  'signUp',
  'signUpAnonymously',
  'resetPassword',
  'signInWithAuthorizationCode',
  'refresh',
  'signOut',
  'sudo',
  'deleteAccount',
  'getUser',
  'continueProviderSignIn',
  'providers',
  'startProviderSignIn',
  'completeProviderRedirect',
  'providerBindings',
  'unbindProvider',
  'authorizeInfo',
  'authorizeDetect',
  'authorize',
  'deviceInfo',
  'authorizeDevice',
] as const satisfies readonly (keyof IdentityClient)[]

function createStandIn(): IdentityClient {
  const later =
    (name: (typeof FORWARDED)[number]) =>
    (...args: unknown[]) =>
      loadIdentityClient(currentLocale).then((real) => (real[name] as (...a: unknown[]) => unknown).apply(real, args))
  const stand: Record<string, unknown> = {
    get locale() {
      return currentLocale
    },
    setLocale(locale: string) {
      currentLocale = locale
    },
    initialize: () => (sessionStartNeedsSdk() ? loadIdentityClient(currentLocale).then((real) => real.initialize()) : Promise.resolve(SIGNED_OUT)),
    userInfo: () => SIGNED_OUT,
    accounts: () => [],
    credentials: () => null,
    isAnonymous: () => false,
    ...Object.fromEntries(FORWARDED.map((name) => [name, later(name)])),
  }
  // A stand-in kept by a caller (the session hook holds one) is the real client once it exists.
  return new Proxy(stand, {
    get(target, property) {
      if (!client) return Reflect.get(target, property)
      const value: unknown = Reflect.get(client, property)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(client) : value
    },
  }) as unknown as IdentityClient
}
