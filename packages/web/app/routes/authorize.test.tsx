import { ERROR_INFO_TYPE, LOCALIZED_MESSAGE_TYPE, OAuthErrors } from '@cumulus/protocol'
import type { UserInfo } from '@cumulus/sdk'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { errorReply, fakeIdentityService, type RecordedCall } from '../components/auth/testing/fake-identity-service'
import { ConsentPage } from '../oauth/consent-page'
import { refreshSession, sessionSnapshot } from '../session/session-store'
import { clientLoader } from './authorize'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))
// The browser does not leave in tests: where the page sends it is recorded instead.
const leave = vi.hoisted(() => ({ to: vi.fn((_url: string) => true) }))
vi.mock('../oauth/leave-to', async (importOriginal) => ({ ...(await importOriginal<typeof import('../oauth/leave-to')>()), leaveTo: leave.to }))

const REDIRECT_URI = 'http://127.0.0.1:8123/cb'
const ISSUER = 'https://drive.example'
const REQUEST = { client_id: 'tv-app', response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid pan', state: 's1', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }
const SCOPES: Record<string, Record<string, string>> = {
  'en-US': { openid: 'Confirm who you are', pan: 'See, add, change and delete the files in your drive' },
  ko: { openid: '본인 확인', pan: '드라이브의 파일 보기, 추가, 변경 및 삭제' },
}

/** The consent endpoints as identity answers them; `granted` says whether the user allowed these scopes before. */
function consentHandlers({ granted = false }: { granted?: boolean } = {}) {
  return {
    'GET /v1/user/authorize/info': (call: RecordedCall) => ({
      client: { client_id: 'tv-app', name: 'Living Room TV', logo: '' },
      scopes: (call.query.get('scope') ?? '').split(' ').map((id) => ({ id, description: SCOPES[call.query.get('locale') ?? 'en-US']![id]! })),
      redirect_uri: call.query.get('redirect_uri'),
    }),
    'GET /v1/user/authorize/detect': () => ({ authorized: granted }),
    'GET /.well-known/openid-configuration': () => ({ issuer: ISSUER }),
    'POST /v1/user/authorize': (call: RecordedCall) =>
      call.body.consent
        ? { code: 'code-1', state: 's1', redirect_uri: `${REDIRECT_URI}?code=code-1&state=s1` }
        : {
            status: 403,
            body: {
              error: 'access_denied',
              error_code: OAuthErrors.access_denied.code,
              error_description: 'the user denied the request',
              error_uri: '',
              details: [
                { '@type': LOCALIZED_MESSAGE_TYPE, locale: 'en-US', message: 'Access denied' },
                { '@type': ERROR_INFO_TYPE, reason: 'access_denied', domain: 'cumulus', metadata: { redirect_uri: `${REDIRECT_URI}?error=access_denied&state=s1` } },
              ],
            },
          },
  }
}

async function signedIn(handlers: Parameters<typeof fakeIdentityService>[0], locale = 'en-US'): Promise<UserInfo> {
  service.current = fakeIdentityService(handlers, { locale })
  await service.current.client.signIn({ username: 'ann@example.com', password: 'correct horse' })
  await act(() => refreshSession(service.current!.client))
  return sessionSnapshot().user!
}

function showConsent(user: UserInfo | null, query: Record<string, string> = REQUEST, locale: 'en-US' | 'ko' = 'en-US') {
  return renderPage(<ConsentPage user={user} />, { locale, path: '/authorize', search: `?${new URLSearchParams(query)}` })
}

const decisions = () => service.current!.callsTo('POST /v1/user/authorize').map((c) => c.body)

beforeEach(() => {
  leave.to.mockClear()
})

describe('the consent page', () => {
  it('shows the app, the account, what the app may do (in the page language) and where the browser goes', async () => {
    const user = await signedIn(consentHandlers(), 'ko')
    showConsent(user, REQUEST, 'ko')
    expect(await screen.findByRole('heading', { level: 1, name: 'Living Room TV에서 Cumulus 계정에 접근하려고 합니다' })).toBeDefined()
    expect(screen.getByTestId('oauth-account-name').textContent).toBe('Ann Lee')
    const scopes = screen.getByRole('list', { name: '허용하면 Living Room TV에서 다음을 할 수 있습니다:' })
    expect(within(scopes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['본인 확인', '드라이브의 파일 보기, 추가, 변경 및 삭제'])
    expect(screen.getByTestId('consent-destination').textContent).toBe('어느 쪽을 선택하든 127.0.0.1:8123(으)로 돌아갑니다.')
    expect(Object.fromEntries(service.current!.callsTo('GET /v1/user/authorize/info')[0]!.query)).toEqual({ ...REQUEST, locale: 'ko' })
    expect(leave.to).not.toHaveBeenCalled()
  })

  it('Allow grants the request as it came and sends the browser to the redirect URI with the code', async () => {
    const user = await signedIn(consentHandlers())
    showConsent(user)
    await userEvent.click(await screen.findByRole('button', { name: 'Allow' }))
    await waitFor(() => expect(leave.to).toHaveBeenCalledWith(`${REDIRECT_URI}?code=code-1&state=s1`))
    expect(decisions()).toEqual([{ ...REQUEST, consent: true }])
    expect(await screen.findByText('Returning to Living Room TV…')).toBeDefined()
  })

  it('Deny sends the browser to the redirect URI the server’s access_denied names', async () => {
    const user = await signedIn(consentHandlers())
    showConsent(user)
    await userEvent.click(await screen.findByRole('button', { name: 'Deny' }))
    await waitFor(() => expect(leave.to).toHaveBeenCalledWith(`${REDIRECT_URI}?error=access_denied&state=s1`))
    expect(decisions()).toEqual([{ ...REQUEST, consent: false }])
  })

  it('shows a request the server refuses on the page, in the page language, and never redirects', async () => {
    const user = await signedIn(
      { ...consentHandlers(), 'GET /v1/user/authorize/info': errorReply(400, 'invalid_scope', OAuthErrors.invalid_scope.code, { 'en-US': 'The app asked for a scope it may not have', ko: '앱이 요청할 수 없는 권한을 요청했습니다' }) },
      'ko',
    )
    showConsent(user, { ...REQUEST, scope: 'pan admin' }, 'ko')
    expect(await screen.findByRole('heading', { level: 1, name: '이 요청을 완료할 수 없습니다' })).toBeDefined()
    expect((await screen.findByRole('alert')).textContent).toBe('앱이 요청할 수 없는 권한을 요청했습니다')
    expect(screen.queryByRole('button', { name: '허용' })).toBeNull()
    expect(decisions()).toEqual([])
    expect(leave.to).not.toHaveBeenCalled()
  })

  it('approves at once what the user already granted', async () => {
    const user = await signedIn(consentHandlers({ granted: true }))
    showConsent(user)
    await waitFor(() => expect(leave.to).toHaveBeenCalledWith(`${REDIRECT_URI}?code=code-1&state=s1`))
    expect(Object.fromEntries(service.current!.callsTo('GET /v1/user/authorize/detect')[0]!.query)).toEqual({ client_id: 'tv-app', scope: 'openid pan' })
    expect(decisions()).toEqual([{ ...REQUEST, consent: true }])
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull()
  })

  it('asks again when the app says prompt=consent, even after a grant', async () => {
    const user = await signedIn(consentHandlers({ granted: true }))
    showConsent(user, { ...REQUEST, prompt: 'consent' })
    expect(await screen.findByRole('button', { name: 'Allow' })).toBeDefined()
    expect(service.current!.callsTo('GET /v1/user/authorize/detect')).toEqual([])
    expect(decisions()).toEqual([])
    // prompt is OpenID Connect's, not a parameter of the grant.
    expect(service.current!.callsTo('GET /v1/user/authorize/info')[0]!.query.has('prompt')).toBe(false)
  })

  it('with prompt=none and no earlier grant, answers consent_required on the checked redirect URI without asking', async () => {
    const user = await signedIn(consentHandlers())
    showConsent(user, { ...REQUEST, prompt: 'none' })
    await waitFor(() => expect(leave.to).toHaveBeenCalledWith(`${REDIRECT_URI}?error=consent_required&state=s1&iss=${encodeURIComponent(ISSUER)}`))
    expect(decisions()).toEqual([])
  })

  it('with prompt=none and nobody signed in, answers login_required on the redirect URI the server checked', async () => {
    service.current = fakeIdentityService(consentHandlers())
    await act(() => refreshSession(service.current!.client))
    showConsent(null, { ...REQUEST, prompt: 'none' })
    await waitFor(() => expect(leave.to).toHaveBeenCalledWith(`${REDIRECT_URI}?error=login_required&state=s1&iss=${encodeURIComponent(ISSUER)}`))
    const [asked] = service.current.callsTo('GET /v1/user/authorize/info')
    expect(asked!.headers.get('authorization')).toBeNull()
    expect(decisions()).toEqual([])
  })

  it('with prompt=none and nobody signed in, shows a request the server refuses instead of redirecting', async () => {
    service.current = fakeIdentityService({ ...consentHandlers(), 'GET /v1/user/authorize/info': errorReply(400, 'invalid_request', OAuthErrors.invalid_request.code, { 'en-US': 'redirect_uri is not registered for this client' }) })
    await act(() => refreshSession(service.current!.client))
    showConsent(null, { ...REQUEST, redirect_uri: 'https://evil.example/cb', prompt: 'none' })
    expect((await screen.findByRole('alert')).textContent).toBe('redirect_uri is not registered for this client')
    expect(leave.to).not.toHaveBeenCalled()
  })

  it('lets the visitor choose another account and come back to this request', async () => {
    const user = await signedIn(consentHandlers())
    showConsent(user)
    const link = await screen.findByRole('link', { name: 'Use another account' })
    expect(link.getAttribute('href')).toBe(`/account/login?add=1&redirect=${encodeURIComponent(`/authorize?${new URLSearchParams(REQUEST)}`)}`)
  })
})

describe('the consent page’s loader', () => {
  async function load(path: string): Promise<unknown> {
    try {
      return await clientLoader({ request: new Request(`${window.location.origin}${path}`) } as Parameters<typeof clientLoader>[0])
    } catch (thrown) {
      return thrown
    }
  }

  it('sends a signed-out visitor to sign in, and back to the same request afterwards', async () => {
    service.current = fakeIdentityService()
    await act(() => refreshSession(service.current!.client))
    const response = (await load('/ko/authorize?client_id=tv-app&state=s1')) as Response
    expect(response.headers.get('location')).toBe(`/ko/account/login?redirect=${encodeURIComponent('/ko/authorize?client_id=tv-app&state=s1')}`)
  })

  it('shows login_required instead when the app asked for no page at all (prompt=none)', async () => {
    service.current = fakeIdentityService()
    await act(() => refreshSession(service.current!.client))
    expect(await load('/authorize?client_id=tv-app&prompt=none')).toEqual({ loginRequired: true })
  })

  it('lets a signed-in visitor in', async () => {
    await signedIn(consentHandlers())
    expect(await load('/authorize?client_id=tv-app&prompt=none')).toEqual({ loginRequired: false })
  })
})
