import { AccountErrors } from '@cumulus/protocol'
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { I18nextProvider } from 'react-i18next'
import { createRoutesStub } from 'react-router'
import { ALL_MESSAGES, renderPage } from '../../../test/render'
import { createI18n } from '../../i18n/i18n'
import { CaptchaOverlay } from '../../components/captcha-overlay'
import { errorReply, fakeIdentityService, tokenReply } from '../../components/auth/testing/fake-identity-service'
import { refreshSession } from '../../session/session-store'
import LoginPage from './login'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))
// The browser does not leave in tests: navigations to a provider are recorded instead.
const leave = vi.hoisted(() => ({ to: vi.fn((_url: string) => true) }))
vi.mock('../../oauth/leave-to', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../oauth/leave-to')>()), leaveTo: leave.to }))

const HOME = <p>account home page</p>

async function start(handlers: Parameters<typeof fakeIdentityService>[0] = {}, locale?: string) {
  service.current = fakeIdentityService(handlers, { locale })
  // Sent codes are kept in the tab's storage across reloads: each test starts with none.
  window.sessionStorage.clear()
  // The session store is module state: start every test signed out.
  await act(() => refreshSession(service.current!.client))
  return service.current
}

const bodyOf = (key: string) => service.current!.callsTo(key).map((c) => c.body)

describe('login page: password', () => {
  beforeEach(() => start())

  it('checks the patterns before sending anything', async () => {
    renderPage(<LoginPage />, { path: '/account/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    const username = screen.getByLabelText('E-mail, phone or username')
    expect(username.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Enter your e-mail, phone number or username.')).toBeDefined()
    expect(screen.getByText('Enter your password.')).toBeDefined()
    expect(document.activeElement).toBe(username)

    await userEvent.type(username, '+12')
    expect(screen.getByText('Enter a valid phone number.')).toBeDefined()
    // The page asks which identity providers exist; nothing else may have been sent.
    expect(service.current!.calls.filter((c) => c.path !== '/v1/user/me' && c.path !== '/v1/auth/providers')).toEqual([])
  })

  it('signs in with the password and goes to the account page', async () => {
    renderPage(<LoginPage />, { path: '/account/login', routes: { '/account/home': HOME } })
    await userEvent.type(screen.getByLabelText('E-mail, phone or username'), ' +1 (415) 555-0100 ')
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('account home page')).toBeDefined()
    expect(bodyOf('POST /v1/auth/signin')).toEqual([expect.objectContaining({ username: '+14155550100', password: 'correct horse' })])
    expect(service.current!.client.credentials()?.sub).toBe('user-1')
  })

  it('shows the server’s message in the page language', async () => {
    await start(
      { 'POST /v1/auth/signin': errorReply(400, 'invalid_account_or_password', AccountErrors.invalid_account_or_password.code, { ko: '계정 또는 비밀번호가 올바르지 않습니다' }) },
      'ko',
    )
    renderPage(<LoginPage />, { path: '/account/login', locale: 'ko' })
    await userEvent.type(screen.getByLabelText('이메일, 휴대폰 번호 또는 사용자 이름'), 'ann@example.com')
    await userEvent.type(screen.getByLabelText('비밀번호'), 'wrong password')
    await userEvent.click(screen.getByRole('button', { name: '로그인' }))
    expect((await screen.findByRole('alert')).textContent).toBe('계정 또는 비밀번호가 올바르지 않습니다')
    expect(service.current!.callsTo('POST /v1/auth/signin')[0]!.headers.get('accept-language')).toBe('ko')
  })

  it('says the security check was closed when the user closes the captcha, without crashing', async () => {
    await start({ 'POST /v1/shield/captcha/init': () => ({ url: `${window.location.origin}/captcha/challenge?challenge=c-9`, expires_in: 300 }) })
    renderPage(
      <>
        <LoginPage />
        <CaptchaOverlay />
      </>,
      { path: '/account/login' },
    )
    await userEvent.type(screen.getByLabelText('E-mail, phone or username'), 'ann@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Close the security check' }))
    expect((await screen.findByRole('alert')).textContent).toBe('The security check was closed. Complete it to continue.')
    expect(service.current!.callsTo('POST /v1/auth/signin')).toEqual([])
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false)
  })
})

describe('login page: code and sign-up', () => {
  beforeEach(() => start())

  it('signs in with a code sent by e-mail', async () => {
    renderPage(<LoginPage />, { path: '/account/login', routes: { '/account/home': HOME } })
    await userEvent.click(screen.getByRole('tab', { name: 'With a code' }))
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'ann@example.com')
    await userEvent.type(screen.getByLabelText('Verification code'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(screen.getByText('Send a code first, then enter it here.')).toBeDefined()

    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByText('Code sent to ann@example.com. It is valid for 10 minutes.')).toBeDefined()
    expect(screen.getByTestId('send-code').textContent).toMatch(/Resend in (60|59) s/)
    expect(bodyOf('POST /v1/auth/verification')).toEqual([expect.objectContaining({ email: 'ann@example.com', usage: 'SIGN_IN', target: 'USER' })])

    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('account home page')).toBeDefined()
    expect(bodyOf('POST /v1/auth/verification/verify')).toEqual([expect.objectContaining({ verification_id: 'verification-1', verification_code: '123456' })])
    expect(bodyOf('POST /v1/auth/signin')).toEqual([expect.objectContaining({ username: 'ann@example.com', verification_code: '123456', verification_token: 'verification-token' })])
  })

  it('keeps a sent code through a reload of the page, and forgets it once used', async () => {
    const first = renderPage(<LoginPage />, { path: '/account/login', routes: { '/account/home': HOME } })
    await userEvent.click(screen.getByRole('tab', { name: 'With a code' }))
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'ann@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByText('Code sent to ann@example.com. It is valid for 10 minutes.')
    first.unmount()

    // The page again, as after a reload (?method=code: the open tab is kept in the address).
    renderPage(<LoginPage />, { path: '/account/login', search: '?method=code', routes: { '/account/home': HOME } })
    expect(await screen.findByText('Code sent to ann@example.com. It is valid for 10 minutes.')).toBeDefined()
    expect((screen.getByLabelText('E-mail address') as HTMLInputElement).value).toBe('ann@example.com')
    // The server would refuse another send for a minute: the button still counts down.
    expect(screen.getByTestId('send-code').textContent).toMatch(/Resend in (60|59|58) s/)
    expect((screen.getByTestId('send-code') as HTMLButtonElement).disabled).toBe(true)
    await userEvent.type(screen.getByLabelText('Verification code'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('account home page')).toBeDefined()
    expect(bodyOf('POST /v1/auth/verification')).toHaveLength(1)
    expect(bodyOf('POST /v1/auth/verification/verify')).toEqual([expect.objectContaining({ verification_id: 'verification-1', verification_code: '123456' })])
    expect(Object.keys(window.sessionStorage).filter((key) => key.startsWith('cumulus.sentCode.'))).toEqual([])
  })

  it('counts down a short wait the server asks for when it refuses a send for now; a long one is only explained', async () => {
    const refuse = errorReply(429, 'resource_exhausted', 8, { 'en-US': 'Too many requests. Try again later.' })
    await start({ 'POST /v1/auth/verification': (call) => ({ ...refuse(call), headers: { 'retry-after': '42' } }) })
    renderPage(<LoginPage />, { path: '/account/login', search: '?method=code' })
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'ann@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    // Nothing was sent from this page: "Send in", not "Resend in", and why it waits, in place of
    // the catalogue's generic "too many requests".
    await waitFor(() => expect(screen.getByTestId('send-code').textContent).toMatch(/^Send in (42|41|40) s$/))
    expect((screen.getByTestId('send-code') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.queryByText(/Code sent to/)).toBeNull()
    expect(screen.getByRole('status').textContent).toBe('A code was sent to this address less than a minute ago. You can ask for a new one when the countdown ends.')
    expect(screen.queryByText('Too many requests. Try again later.')).toBeNull()
    // Another address is not held back by this one's wait.
    await userEvent.clear(screen.getByLabelText('E-mail address'))
    await userEvent.type(screen.getByLabelText('E-mail address'), 'bob@example.com')
    expect(screen.getByTestId('send-code').textContent).toBe('Send code')
    expect((screen.getByTestId('send-code') as HTMLButtonElement).disabled).toBe(false)
    cleanup()

    // An hour's budget spent: no countdown of thousands of seconds, the catalogue's message instead.
    await start({ 'POST /v1/auth/verification': (call) => ({ ...refuse(call), headers: { 'retry-after': '3500' } }) })
    renderPage(<LoginPage />, { path: '/account/login', search: '?method=code' })
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'ann@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByText('Too many requests. Try again later.')).toBeDefined()
    expect(screen.getByTestId('send-code').textContent).toBe('Send code')
  })

  it('says no account uses the address when a code for sign-in is asked for one nobody has, not "wrong password"', async () => {
    await start({ 'POST /v1/auth/verification': errorReply(400, 'user_not_exist', 4023, { 'en-US': 'Wrong account number or password, please re-enter' }) })
    renderPage(<LoginPage />, { path: '/account/login', search: '?method=code' })
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'nobody@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByText('No account uses this address. Check it, or create an account.')).toBeDefined()
    expect(screen.queryByText(/Wrong account number or password/)).toBeNull()
  })

  it('refuses a malformed address before sending a code', async () => {
    renderPage(<LoginPage />, { path: '/account/login' })
    await userEvent.click(screen.getByRole('tab', { name: 'With a code' }))
    await userEvent.type(await screen.findByLabelText('E-mail address'), 'ann@example')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(screen.getByText('Enter a valid e-mail address, like name@example.com.')).toBeDefined()
    expect(service.current!.callsTo('POST /v1/auth/verification')).toEqual([])
  })

  // Regression (issue 10): after sign-up the new user landed on the account page, not the drive.
  it('creates an account with a phone number, code, password and name, and lands on the drive', async () => {
    renderPage(<LoginPage />, { path: '/account/login', routes: { '/account/home': HOME, '/drive': <p>drive page</p> } })
    await userEvent.click(screen.getByRole('tab', { name: 'Create account' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeDefined()
    await userEvent.click(screen.getByRole('radio', { name: 'Phone' }))
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Country or region' }), 'SG')
    await userEvent.type(screen.getByLabelText('Phone number'), '9123 4567')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByText(/Code sent to \+6591234567/)
    await userEvent.type(screen.getByLabelText('Verification code'), '654321')
    await userEvent.type(screen.getByLabelText('New password'), 'short')
    await userEvent.type(screen.getByLabelText('Name (optional)'), ' Ann ')
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }))
    expect(screen.getByText('Use at least 8 characters.')).toBeDefined()
    expect(service.current!.callsTo('POST /v1/auth/signup')).toEqual([])

    await userEvent.type(screen.getByLabelText('New password'), ' and long')
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('drive page')).toBeDefined()
    expect(bodyOf('POST /v1/auth/verification')).toEqual([expect.objectContaining({ phone_number: '+6591234567', usage: 'REGISTER', target: 'ANY' })])
    expect(bodyOf('POST /v1/auth/signup')).toEqual([
      expect.objectContaining({ phone_number: '+6591234567', verification_code: '654321', verification_token: 'verification-token', password: 'short and long', name: 'Ann' }),
    ])
  })

  it('fills the invite code in from an invite link and sends it with the sign-up', async () => {
    renderPage(<LoginPage />, { path: '/account/login', search: '?tab=sign-up&invite=INV1TE23', routes: { '/account/home': HOME, '/drive': <p>drive page</p> } })
    expect(screen.getByRole('tab', { name: 'Create account', selected: true })).toBeDefined()
    expect(await screen.findByLabelText('Invite code (optional)')).toBeDefined()
    expect((screen.getByLabelText('Invite code (optional)') as HTMLInputElement).value).toBe('INV1TE23')
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ann@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByText(/Code sent to/)
    await userEvent.type(screen.getByLabelText('Verification code'), '654321')
    await userEvent.type(screen.getByLabelText('New password'), 'long enough password')
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('drive page')).toBeDefined()
    expect(bodyOf('POST /v1/auth/signup')).toEqual([expect.objectContaining({ email: 'ann@example.com', invite_code: 'INV1TE23' })])
  })

  it('starts a guest account', async () => {
    renderPage(<LoginPage />, { path: '/account/login', routes: { '/account/home': HOME } })
    await userEvent.click(screen.getByRole('button', { name: 'Try without an account' }))
    expect(await screen.findByText('account home page')).toBeDefined()
    expect(service.current!.callsTo('POST /v1/auth/signup/anonymously')).toHaveLength(1)
    expect(service.current!.client.isAnonymous()).toBe(true)
  })
})

describe('login page: already signed in', () => {
  beforeEach(async () => {
    // Each username is its own account, so a second sign-in adds one.
    const { client } = await start({ 'POST /v1/auth/signin': (call) => tokenReply(`user-${String(call.body.username)}`) })
    await client.signIn({ username: 'ann@example.com', password: 'correct horse' })
    await act(() => refreshSession(client))
  })

  it('opens the forms at once when arriving to add an account (?add=1)', async () => {
    renderPage(<LoginPage />, { path: '/account/login', search: '?add=1', routes: { '/account/home': HOME } })
    expect(await screen.findByRole('heading', { level: 1, name: 'Add another account' })).toBeDefined()
    expect(screen.queryByTestId('signed-in-panel')).toBeNull()
  })

  it('shows who is signed in, links to the account, and offers another account', async () => {
    renderPage(<LoginPage />, { path: '/account/login', routes: { '/account/home': HOME } })
    const panel = await screen.findByTestId('signed-in-panel')
    expect(within(panel).getByTestId('signed-in-name').textContent).toBe('Ann Lee')
    expect(within(panel).getByRole('link', { name: 'Go to my account' }).getAttribute('href')).toBe('/account/home')

    await userEvent.click(within(panel).getByRole('button', { name: 'Sign in with another account' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Add another account' })).toBeDefined()
    await userEvent.type(screen.getByLabelText('E-mail, phone or username'), 'bob_smith')
    await userEvent.type(screen.getByLabelText('Password'), 'another pass')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await screen.findByText('account home page')
    // The first account stays stored; the new one is current.
    expect(service.current!.client.accounts().map((a) => a.sub)).toEqual(['user-bob_smith', 'user-ann@example.com'])
  })
})

describe('login page: where it goes after signing in', () => {
  beforeEach(() => start())

  /** renderPage cannot start at a URL with a query string; this renders /ko/account/login?… directly. */
  function renderLoginAt(url: string) {
    const Stub = createRoutesStub([
      { path: '/ko/account/login', Component: LoginPage },
      { path: '/ko/account/home', Component: () => <p>account home page</p> },
      { path: '/ko/about', Component: () => <p>about page</p> },
    ])
    render(
      <I18nextProvider i18n={createI18n('ko', ALL_MESSAGES)}>
        <Stub initialEntries={[url]} />
      </I18nextProvider>,
    )
  }

  async function signIn() {
    await userEvent.click(screen.getByRole('button', { name: '계정 없이 사용해 보기' }))
  }

  it('returns to the page named in ?redirect=', async () => {
    renderLoginAt(`/ko/account/login?redirect=${encodeURIComponent('/ko/about')}`)
    await signIn()
    expect(await screen.findByText('about page')).toBeDefined()
  })

  it('refuses an external ?redirect= and goes to the account page of the page language', async () => {
    renderLoginAt(`/ko/account/login?redirect=${encodeURIComponent('https://evil.example/ko/about')}`)
    await signIn()
    expect(await screen.findByText('account home page')).toBeDefined()
  })

  it('opens on account creation with ?tab=sign-up, as creating a first account when nobody is signed in', () => {
    renderLoginAt('/ko/account/login?tab=sign-up')
    expect(screen.getByRole('tab', { name: '계정 만들기', selected: true })).toBeDefined()
    // Not "Add another account": that is for a browser with an account signed in already.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('계정 만들기')
  })
})

describe('login page: identity providers', () => {
  const PROVIDERS = {
    providers: [
      { id: 'google', name: 'Google', icon: 'https://google.example/g.svg' },
      { id: 'local-oidc', name: 'Intranet', icon: '' },
    ],
  }

  beforeEach(() => {
    leave.to.mockClear()
  })

  it('offers no provider button when the operator configured none', async () => {
    await start()
    renderPage(<LoginPage />, { path: '/account/login' })
    await waitFor(() => expect(service.current!.callsTo('GET /v1/auth/providers')).toHaveLength(1))
    expect(screen.queryByRole('list', { name: 'Sign in with another service' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Continue with/ })).toBeNull()
  })

  it('offers a button per provider, with its icon or the generic one', async () => {
    await start({ 'GET /v1/auth/providers': () => PROVIDERS })
    renderPage(<LoginPage />, { path: '/account/login' })
    const list = await screen.findByRole('list', { name: 'Sign in with another service' })
    const buttons = within(list).getAllByRole('button')
    expect(buttons.map((b) => b.textContent)).toEqual(['Continue with Google', 'Continue with Intranet'])
    expect(within(buttons[0]!).getByTestId('provider-icon').getAttribute('src')).toBe('https://google.example/g.svg')
    expect(within(buttons[1]!).getByTestId('provider-icon-generic')).toBeDefined()
  })

  it('starts the sign-in at the provider with the callback page and returns where the login page would have', async () => {
    await start({
      'GET /v1/auth/providers': () => PROVIDERS,
      'GET /v1/auth/provider/uri': (call) => ({ uri: `https://accounts.google.example/o/auth?state=${call.query.get('state')}`, state: call.query.get('state') }),
    })
    const Stub = createRoutesStub([{ path: '/ko/account/login', Component: LoginPage }])
    render(
      <I18nextProvider i18n={createI18n('ko', ALL_MESSAGES)}>
        <Stub initialEntries={[`/ko/account/login?redirect=${encodeURIComponent('/ko/drive/starred')}`]} />
      </I18nextProvider>,
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Google(으)로 계속하기' }))
    await waitFor(() => expect(leave.to).toHaveBeenCalledTimes(1))
    const [asked] = service.current!.callsTo('GET /v1/auth/provider/uri')
    expect(Object.fromEntries(asked!.query)).toEqual({ client_id: 'cumulus-web', provider_id: 'google', redirect_uri: `${window.location.origin}/auth/callback`, state: expect.stringMatching(/^[0-9a-f]{32}$/) })
    expect(leave.to).toHaveBeenCalledWith(`https://accounts.google.example/o/auth?state=${asked!.query.get('state')}`)
    expect(JSON.parse(sessionStorage.getItem('cumulus:provider-sign-in')!)).toEqual({ providerId: 'google', mode: 'signin', returnTo: '/ko/drive/starred', locale: 'ko' })
    // The button keeps loading while the browser leaves.
    expect(screen.getByRole('button', { name: 'Google(으)로 계속하기' }).getAttribute('aria-busy')).toBe('true')
  })

  it('shows why the provider cannot be used, in the page language', async () => {
    await start(
      {
        'GET /v1/auth/providers': () => PROVIDERS,
        'GET /v1/auth/provider/uri': errorReply(400, 'provider_error', AccountErrors.provider_error.code, { ko: 'Google에 연결하지 못했습니다' }),
      },
      'ko',
    )
    renderPage(<LoginPage />, { path: '/account/login', locale: 'ko' })
    await userEvent.click(await screen.findByRole('button', { name: 'Google(으)로 계속하기' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Google에 연결하지 못했습니다')
    expect(leave.to).not.toHaveBeenCalled()
  })
})
