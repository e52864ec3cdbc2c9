import { messageForReason } from '@cumulus/protocol'
import { act, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { fakeIdentityService, tokenReply } from '../components/auth/testing/fake-identity-service'
import { recordFailedRedirect, startProviderSignIn, takeJustLinked } from '../oauth/provider-sign-in'
import { refreshSession, sessionSnapshot } from '../session/session-store'
import ProviderCallbackPage, { clientLoader } from './auth-callback'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))

const PROVIDER_TOKEN = { provider_token: 'provider-token-1', expires_in: 600, provider_profile: { sub: 'g-1', name: 'Ann', email: 'ann@example.com', email_verified: true, picture: '' } }

async function setUp(handlers: Parameters<typeof fakeIdentityService>[0] = {}) {
  service.current = fakeIdentityService({
    'GET /v1/auth/provider/uri': (call) => ({ uri: `https://google.example/auth?state=${call.query.get('state')}`, state: call.query.get('state') }),
    'POST /v1/auth/provider/token': () => PROVIDER_TOKEN,
    'POST /v1/auth/signin/with/provider': () => tokenReply('user-9'),
    'POST /v1/user/provider/bind': () => ({}),
    ...handlers,
  })
  recordFailedRedirect(null)
  await act(() => refreshSession(service.current!.client))
  return service.current
}

/** Starts a provider sign-in as the login page does; resolves with the `state` the provider will send back. */
async function started(input: { mode?: 'signin' | 'bind'; returnTo?: string; locale?: 'en-US' | 'ko' } = {}): Promise<string> {
  await startProviderSignIn(service.current!.client, { providerId: 'google', mode: input.mode ?? 'signin', returnTo: input.returnTo ?? '/ko/drive', locale: input.locale ?? 'ko' })
  return service.current!.callsTo('GET /v1/auth/provider/uri').at(-1)!.query.get('state')!
}

/** The callback's loader on `query`: the Response it throws (it always leaves when the URL has a redirect). */
async function arrive(query: string, path = '/auth/callback'): Promise<Response> {
  try {
    await clientLoader({ request: new Request(`${window.location.origin}${path}?${query}`) } as Parameters<typeof clientLoader>[0])
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
  throw new Error('the loader did not leave')
}

const leftFor = (response: Response) => ({ status: response.status, location: response.headers.get('location'), replace: response.headers.has('X-Remix-Replace') })

beforeEach(() => {
  sessionStorage.clear()
})

describe('/auth/callback: completing the redirect', () => {
  it('signs in with the provider’s code and replaces itself with the page the visitor was heading to', async () => {
    await setUp()
    const state = await started({ returnTo: '/ko/drive' })
    const response = await arrive(`code=c-1&state=${state}`)
    expect(leftFor(response)).toEqual({ status: 302, location: '/ko/drive', replace: true })
    expect(service.current!.callsTo('POST /v1/auth/provider/token').map((c) => c.body)).toEqual([
      expect.objectContaining({ provider_id: 'google', provider_code: 'c-1', provider_redirect_uri: `${window.location.origin}/auth/callback`, state }),
    ])
    expect(service.current!.callsTo('POST /v1/auth/signin/with/provider').map((c) => c.body)).toEqual([expect.objectContaining({ provider_token: 'provider-token-1' })])
    // The session is published before the page the visitor lands on renders.
    expect(sessionSnapshot()).toMatchObject({ status: 'signed-in', user: { userId: 'user-9' } })
    // The code stays out of the history: a Back to this URL finds nothing pending.
    expect(sessionStorage.getItem('cumulus:provider-sign-in')).toBeNull()
  })

  it('refuses to leave for another site, whatever the pending sign-in says', async () => {
    await setUp()
    const state = await started({ returnTo: 'https://evil.example/ko/drive' })
    expect(leftFor(await arrive(`code=c-1&state=${state}`)).location).toBe('/ko/account/home')
  })

  it('binds the identity to the signed-in account, and has the account page say so', async () => {
    await setUp()
    await service.current!.client.signIn({ username: 'ann@example.com', password: 'correct horse' })
    const state = await started({ mode: 'bind', returnTo: '/account/home#sign-in-methods', locale: 'en-US' })
    expect(leftFor(await arrive(`code=c-2&state=${state}`)).location).toBe('/account/home#sign-in-methods')
    expect(service.current!.callsTo('POST /v1/user/provider/bind').map((c) => c.body)).toEqual([{ provider_token: 'provider-token-1' }])
    expect(service.current!.callsTo('POST /v1/auth/signin/with/provider')).toEqual([])
    expect(takeJustLinked()).toBe('google')
  })

  it('on a refusal, moves to the callback page of the visitor’s language without the code, which says why', async () => {
    await setUp()
    const state = await started({ returnTo: '/ko/drive', locale: 'ko' })
    expect(leftFor(await arrive(`error=access_denied&error_description=User+cancelled&state=${state}`))).toEqual({ status: 302, location: '/ko/auth/callback', replace: true })
    expect(service.current!.callsTo('POST /v1/auth/provider/token')).toEqual([])

    renderPage(<ProviderCallbackPage />, { locale: 'ko', path: '/auth/callback', routes: { '/account/login': <p>login page</p> } })
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('로그인을 완료하지 못했습니다')
    expect((await screen.findByRole('alert')).textContent).toBe(messageForReason('access_denied', 'ko'))
    expect(screen.getByRole('link', { name: '로그인으로 돌아가기' }).getAttribute('href')).toBe(`/ko/account/login?redirect=${encodeURIComponent('/ko/drive')}`)
  })

  it('refuses a redirect this tab did not start (a forged or replayed state)', async () => {
    await setUp()
    await started({ locale: 'en-US', returnTo: '/drive' })
    expect(leftFor(await arrive('code=c-1&state=someone-elses')).location).toBe('/auth/callback')
    expect(service.current!.callsTo('POST /v1/auth/provider/token')).toEqual([])
    expect(sessionSnapshot().status).toBe('signed-out')

    renderPage(<ProviderCallbackPage />, { path: '/auth/callback' })
    expect((await screen.findByRole('alert')).textContent).toBe(messageForReason('invalid_request', 'en-US'))
  })

  it('says a failed binding was not linked and leads back to the account page', async () => {
    await setUp({ 'POST /v1/auth/provider/token': () => ({ status: 400, body: { error: 'provider_error', error_code: 4019, error_description: 'bad code', error_uri: '', details: [] } }) })
    await service.current!.client.signIn({ username: 'ann@example.com', password: 'correct horse' })
    const state = await started({ mode: 'bind', returnTo: '/account/home#sign-in-methods', locale: 'en-US' })
    await arrive(`code=c-3&state=${state}`)
    renderPage(<ProviderCallbackPage />, { path: '/auth/callback' })
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('The account was not linked')
    expect((await screen.findByRole('alert')).textContent).toBe(messageForReason('provider_error', 'en-US'))
    expect(screen.getByRole('link', { name: 'Back to my account' }).getAttribute('href')).toBe('/account/home')
  })
})

describe('/auth/callback without a redirect in the URL', () => {
  it('does nothing and says no sign-in is in progress', async () => {
    await setUp()
    await expect(clientLoader({ request: new Request(`${window.location.origin}/auth/callback`) } as Parameters<typeof clientLoader>[0])).resolves.toBeNull()
    renderPage(<ProviderCallbackPage />, { path: '/auth/callback' })
    const page = screen.getByTestId('provider-callback')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('No sign-in in progress')
    expect(within(page).getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/account/login')
    expect(service.current!.calls.filter((c) => c.path !== '/v1/user/me')).toEqual([])
  })
})
