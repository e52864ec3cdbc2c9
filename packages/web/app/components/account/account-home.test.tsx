import { type ConnectedApp, type UserSession, WEB_CLIENT_ID, messageForReason } from '@cumulus/protocol'
import type { IdentityClient } from '@cumulus/sdk'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import { refreshSession } from '../../session/session-store'
import { AccountHome } from './account-home'
import { aProfile, errorReply, FakeIdentityServer, GOOD_CODE, signedInClient, VERIFICATION_TOKEN } from './fake-identity-server'

// Only the network is fake: the page gets a real SDK client whose fetch is the fake server.
const mock = vi.hoisted(() => ({ client: null as IdentityClient | null }))
vi.mock('../../session/identity-client', () => ({
  getIdentityClient: () => {
    if (!mock.client) throw new Error('no client set up')
    return mock.client
  },
}))

// The browser does not leave in tests: the page's navigations to a provider are recorded instead.
const leave = vi.hoisted(() => ({ to: vi.fn((_url: string) => true) }))
vi.mock('../../oauth/leave-to', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../oauth/leave-to')>()), leaveTo: leave.to }))

const ANN = aProfile({ sub: 'u1annxxxxxxxxxxx', name: 'Ann', email: 'ann@example.com' })
const BOB = aProfile({ sub: 'u2bobxxxxxxxxxxx', name: 'Bob', email: 'bob@example.com' })
const LOGIN_PAGE = <h1>Login page</h1>

async function showPage(server: FakeIdentityServer, subs: string[], locale: 'en-US' | 'ko' | 'zh-CN' = 'en-US') {
  mock.client = signedInClient(server, subs, locale)
  await refreshSession(mock.client)
  const view = renderPage(<AccountHome />, { locale, path: '/account/home', routes: { '/account/login': LOGIN_PAGE } })
  await screen.findByTestId('account-name')
  return view
}

beforeEach(() => {
  mock.client = null
})

describe('AccountHome: profile', () => {
  it('shows the name, e-mail, phone and user id of the signed-in user', async () => {
    const server = new FakeIdentityServer({ ...ANN, phone_number: '+6591234567' })
    await showPage(server, [ANN.sub])
    expect(screen.getByTestId('account-name').textContent).toBe('Ann')
    expect(screen.getByTestId('account-email').textContent).toBe('ann@example.com')
    expect(screen.getByTestId('account-phone').textContent).toBe('+6591234567')
    expect(screen.getByTestId('account-user-id').textContent).toBe(ANN.sub)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Ann')
    // No picture: the initials stand in for it.
    expect(screen.getAllByTestId('avatar-initials')[0]!.textContent).toBe('A')
  })

  it('edits the name with PATCH /v1/user/profile and shows the new name', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])

    await userEvent.click(screen.getByRole('button', { name: 'Edit name' }))
    const field = screen.getByLabelText('Name')
    expect(document.activeElement).toBe(field)
    await userEvent.clear(field)
    await userEvent.type(field, '  Ann Lee ')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))

    expect(await screen.findByText('Your name is now Ann Lee.')).toBeDefined()
    expect(server.requestsTo('PATCH', '/v1/user/profile')).toEqual([expect.objectContaining({ body: { name: 'Ann Lee' }, authorization: `Bearer token-${ANN.sub}` })])
    expect(screen.getByTestId('account-name').textContent).toBe('Ann Lee')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Ann Lee')
    // The form closed and gave the focus back to the button that opened it.
    expect(screen.queryByLabelText('Name')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit name' }))
  })

  it('closes the name and password editors on Esc, as Cancel does, saving nothing', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Edit name' }))
    await userEvent.type(screen.getByLabelText('Name'), 'x{Escape}')
    expect(screen.queryByLabelText('Name')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit name' }))
    expect(screen.getByTestId('account-name').textContent).toBe('Ann')

    const change = screen.getByRole('button', { name: 'Change password' })
    await userEvent.click(change)
    await userEvent.type(screen.getByLabelText('Current password'), 'secret{Escape}')
    expect(screen.queryByLabelText('Current password')).toBeNull()
    expect(server.requestsTo('PATCH', '/v1/user/profile')).toHaveLength(0)
    expect(server.requestsTo('PATCH', '/v1/user/password')).toHaveLength(0)
  })

  it('refuses an empty name without calling the server', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Edit name' }))
    await userEvent.clear(screen.getByLabelText('Name'))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByText('Enter a name.')).toBeDefined()
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true')
    expect(server.requestsTo('PATCH', '/v1/user/profile')).toHaveLength(0)
  })

  it('copies the user id and says so', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    const writeText = vi.fn(async () => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await userEvent.click(screen.getByRole('button', { name: 'Copy user ID' }))
    expect(writeText).toHaveBeenCalledWith(ANN.sub)
    expect(await screen.findByText('User ID copied to the clipboard.')).toBeDefined()
    expect(screen.getByRole('button', { name: 'Copy user ID' }).textContent).toBe('Copied')
  })
})

describe('AccountHome: membership', () => {
  it('shows a yearly VIP member with level, expiry and icon', async () => {
    const server = new FakeIdentityServer({
      ...ANN,
      vip_info: [
        { user_vas: 1, is_vip: 0, is_year: 0, expire: '2026-01-05T08:00:00Z', vas_type: 'other', level: 0, vip_icon: { large: '', small: '' } },
        { user_vas: 2, is_vip: 1, is_year: 1, expire: '2027-03-15T12:00:00Z', vas_type: 'vip', level: 1, vip_icon: { large: 'https://cumulus.test/v1/assets/vip-large.svg', small: 'https://cumulus.test/v1/assets/vip-small.svg' } },
      ],
    })
    await showPage(server, [ANN.sub])
    const status = screen.getByTestId('vip-status')
    expect(status.dataset.vip).toBe('member')
    expect(within(status).getByTestId('vip-state').textContent).toBe('VIP member')
    expect(within(status).getByTestId('vip-yearly').textContent).toBe('Yearly')
    expect(within(status).getByTestId('vip-level').textContent).toBe('Level 1')
    expect(within(status).getByTestId('vip-expiry').textContent).toBe(`Valid until ${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date('2027-03-15T12:00:00Z'))}`)
    expect(within(status).getByRole('img', { name: 'VIP' }).getAttribute('src')).toBe('https://cumulus.test/v1/assets/vip-small.svg')
    expect(screen.queryByText(/granted by the operator/)).toBeNull()
  })

  it('shows a monthly member without the yearly badge, dates in the page language', async () => {
    const server = new FakeIdentityServer({ ...ANN, vip_info: [{ user_vas: 2, is_vip: 1, is_year: 0, expire: '2027-03-15T12:00:00Z', vas_type: 'vip', level: 1, vip_icon: { large: '', small: '' } }] })
    await showPage(server, [ANN.sub], 'zh-CN')
    const status = screen.getByTestId('vip-status')
    expect(within(status).getByTestId('vip-state').textContent).toBe('VIP 会员')
    expect(within(status).queryByTestId('vip-yearly')).toBeNull()
    expect(within(status).getByTestId('vip-expiry').textContent).toBe(`有效期至 ${new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium' }).format(new Date('2027-03-15T12:00:00Z'))}`)
  })

  it('explains membership to a non-member, with no purchase flow', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    const status = screen.getByTestId('vip-status')
    expect(status.dataset.vip).toBe('none')
    expect(within(status).getByTestId('vip-state').textContent).toBe('You are not a VIP member')
    expect(within(status).queryByTestId('vip-yearly')).toBeNull()
    expect(within(status).queryByTestId('vip-ended')).toBeNull()
    expect(within(status).getByText('More space')).toBeDefined()
    expect(within(status).getByText('More tasks')).toBeDefined()
    expect(within(status).getByText('Video playback')).toBeDefined()
    expect(within(status).getByText(/activation code from the operator/)).toBeDefined()
    // Redeeming a code and inviting friends are the only actions: there is no purchase flow.
    await waitFor(() => expect((within(status).getByTestId('invite-link') as HTMLInputElement).value).toBe(`${window.location.origin}/account/login?tab=sign-up&invite=INV1TE23`))
    expect(within(status).getAllByRole('button').map((b) => b.textContent)).toEqual(['Redeem', 'Copy link'])
  })

  it('redeems an activation code typed loosely, then shows the membership it gave', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await userEvent.type(screen.getByLabelText('Activation code'), ' abcd efgh jkmn pqrs ')
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }))
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date('2027-03-15T12:00:00Z'))
    expect((await screen.findByTestId('redeem-done')).textContent).toBe(`31 days of membership added. You are a member until ${date}.`)
    expect(server.requestsTo('POST', '/vip/v1/order/activation-code').map((r) => r.body)).toEqual([{ activation_code: 'abcd efgh jkmn pqrs', data: {} }])
    await waitFor(() => expect(screen.getByTestId('vip-status').dataset.vip).toBe('member'))
    expect(screen.getByTestId('vip-state').textContent).toBe('VIP member')
    // The form and its message stay as the card turns into a member's.
    expect(screen.getByTestId('redeem-done').textContent).toMatch(/^31 days of membership added/)
    // The member's limits, read again for the new plan.
    await waitFor(() => expect(screen.getByTestId('usage-offline-daily').textContent).toBe('Cloud downloads today4 of 1,000'))
  })

  it('shows what the free plan allows and how much of it is used', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await waitFor(() => expect(screen.getByTestId('usage-storage').textContent).toBe('Storage3 GiB of 10 GiB'.replace(/ (?=GiB)/g, '\u00a0')))
    expect(screen.getByTestId('usage-offline-daily').textContent).toBe('Cloud downloads today4 of 10')
    expect(screen.getByTestId('usage-offline-running').textContent).toBe('Cloud downloads at once1 of 2')
    expect(screen.getByTestId('usage-plays').textContent).toBe('Videos played today2 of 5')
    expect(screen.getByTestId('usage-traffic').textContent).toBe('Downloaded today1 GiB of 5 GiB'.replace(/ (?=GiB)/g, '\u00a0'))
  })

  it('shows why a code was refused, in the page language, and asks for a code before sending anything', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub], 'ko')
    await userEvent.click(screen.getByRole('button', { name: '사용하기' }))
    expect((await screen.findByRole('alert')).textContent).toBe('활성화 코드를 입력하세요.')
    expect(server.requestsTo('POST', '/vip/v1/order/activation-code')).toHaveLength(0)
    // The server words its refusal in the caller's language (a LocalizedMessage detail).
    server.failNext('POST', '/vip/v1/order/activation-code', errorReply(400, 'activation_code_invalid', 3, { locale: 'ko', message: messageForReason('activation_code_invalid', 'ko')! }))
    await userEvent.type(screen.getByLabelText('활성화 코드'), 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')
    await userEvent.click(screen.getByRole('button', { name: '사용하기' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('유효하지 않은 활성화 코드입니다. 확인 후 다시 시도하세요'))
    expect(screen.getByTestId('vip-status').dataset.vip).toBe('none')
  })
})

describe('AccountHome: password', () => {
  async function fillPasswordForm(labels: { current: string; next: string; confirm: string }, values = { current: 'old-password', next: 'new-password-1' }) {
    await userEvent.type(screen.getByLabelText(labels.current), values.current)
    await userEvent.type(screen.getByLabelText(labels.next), values.next)
    await userEvent.type(screen.getByLabelText(labels.confirm), values.next)
  }

  it('sends the current and the new password and shows the server error in the page language', async () => {
    const server = new FakeIdentityServer(ANN)
    server.failNext('PATCH', '/v1/user/password', errorReply(400, 'invalid_password', 4010, { locale: 'ko', message: '비밀번호가 올바르지 않습니다' }))
    await showPage(server, [ANN.sub], 'ko')

    await userEvent.click(screen.getByRole('button', { name: '비밀번호 변경' }))
    await fillPasswordForm({ current: '현재 비밀번호', next: '새 비밀번호', confirm: '새 비밀번호 확인' })
    await userEvent.click(screen.getByRole('button', { name: '새 비밀번호 저장' }))

    expect((await screen.findByRole('alert')).textContent).toBe('비밀번호가 올바르지 않습니다')
    expect(server.requestsTo('PATCH', '/v1/user/password')).toEqual([
      expect.objectContaining({ body: { old_password: 'old-password', password: 'new-password-1' }, authorization: `Bearer token-${ANN.sub}` }),
    ])
    // The form stays open so the user can correct the password.
    expect(screen.getByLabelText('현재 비밀번호')).toBeDefined()
  })

  it('confirms a changed password and closes the form', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    await fillPasswordForm({ current: 'Current password', next: 'New password', confirm: 'Confirm new password' })
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(await screen.findByText('Your password was changed. Your other devices were signed out.')).toBeDefined()
    expect(screen.queryByLabelText('Current password')).toBeNull()
  })

  it('checks the new password before sending anything', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    await fillPasswordForm({ current: 'Current password', next: 'New password', confirm: 'Confirm new password' }, { current: 'old-password', next: 'short' })
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }))
    expect(screen.getByText('Use at least 8 characters.')).toBeDefined()
    expect(document.activeElement).toBe(screen.getByLabelText('New password'))
    expect(server.requestsTo('PATCH', '/v1/user/password')).toHaveLength(0)
  })

  it('offers password recovery to an account without a password', async () => {
    const server = new FakeIdentityServer({ ...ANN, password: '' })
    await showPage(server, [ANN.sub])
    expect(screen.queryByRole('button', { name: 'Change password' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Set a password' }).getAttribute('href')).toBe('/password/recover')
  })
})

describe('AccountHome: e-mail and phone', () => {
  it('binds a new e-mail by code: EMAIL_ADDRESS_CHANGE, verify, then PATCH /v1/user/contact', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])

    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail address' }))
    await userEvent.type(screen.getByLabelText('New e-mail address'), 'ann.lee@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))

    expect(await screen.findByText('We sent a 6-digit code to ann.lee@example.com. It expires in 10 minutes.')).toBeDefined()
    expect(server.requestsTo('POST', '/v1/auth/verification')).toEqual([
      expect.objectContaining({ body: expect.objectContaining({ email: 'ann.lee@example.com', usage: 'EMAIL_ADDRESS_CHANGE', target: 'ANY', client_id: WEB_CLIENT_ID }) }),
    ])

    await userEvent.type(screen.getByLabelText('Verification code'), '000000')
    await userEvent.click(screen.getByRole('button', { name: 'Verify and save' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/code/i)
    expect(server.requestsTo('PATCH', '/v1/user/contact')).toHaveLength(0)

    await userEvent.clear(screen.getByLabelText('Verification code'))
    await userEvent.type(screen.getByLabelText('Verification code'), GOOD_CODE)
    await userEvent.click(screen.getByRole('button', { name: 'Verify and save' }))

    expect(await screen.findByText('Your e-mail address is now ann.lee@example.com.')).toBeDefined()
    expect(server.requestsTo('POST', '/v1/auth/verification/verify').at(-1)!.body).toEqual({ verification_id: 'verification-1', verification_code: GOOD_CODE, client_id: WEB_CLIENT_ID })
    expect(server.requestsTo('PATCH', '/v1/user/contact')).toEqual([
      expect.objectContaining({ body: { email: 'ann.lee@example.com', verification_token: VERIFICATION_TOKEN }, authorization: `Bearer token-${ANN.sub}` }),
    ])
    expect(screen.getByTestId('account-email').textContent).toBe('ann.lee@example.com')
  })

  it('adds a phone number in E.164 with PHONE_NUMBER_CHANGE', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    expect(screen.getByTestId('account-phone').dataset.empty).toBe('true')

    await userEvent.click(screen.getByRole('button', { name: 'Add phone number' }))
    await userEvent.type(screen.getByLabelText('New phone number'), '+65 9123 4567')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await userEvent.type(await screen.findByLabelText('Verification code'), GOOD_CODE)
    await userEvent.click(screen.getByRole('button', { name: 'Verify and save' }))

    expect(await screen.findByText('Your phone number is now +6591234567.')).toBeDefined()
    expect(server.requestsTo('POST', '/v1/auth/verification')[0]!.body).toEqual(expect.objectContaining({ phone_number: '+6591234567', usage: 'PHONE_NUMBER_CHANGE' }))
    expect(server.requestsTo('PATCH', '/v1/user/contact')[0]!.body).toEqual({ phone_number: '+6591234567', verification_token: VERIFICATION_TOKEN })
    expect(screen.getByTestId('account-phone').textContent).toBe('+6591234567')
  })

  it('shows a refused code request (too frequent) as an alert', async () => {
    const server = new FakeIdentityServer(ANN)
    server.failNext('POST', '/v1/auth/verification', errorReply(429, 'resource_exhausted', 8, { locale: 'en-US', message: 'Too many requests, try again later' }))
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail address' }))
    await userEvent.type(screen.getByLabelText('New e-mail address'), 'ann.lee@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests, try again later')
  })
})

describe('AccountHome: a code asked for moments ago elsewhere', () => {
  // A second tab or device asks within the minute: the server refuses with Retry-After, and the
  // form counts down instead of showing a bare "too many requests".
  const recently = () => ({ ...errorReply(429, 'resource_exhausted', 8, { locale: 'en-US', message: 'Too many requests, try again later' }), headers: { 'retry-after': '42' } })

  it('counts the wait down on the send button; another address does not wait', async () => {
    const server = new FakeIdentityServer(ANN)
    server.failNext('POST', '/v1/auth/verification', recently())
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail address' }))
    await userEvent.type(screen.getByLabelText('New e-mail address'), 'ann.lee@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))

    const waiting = await screen.findByRole('button', { name: /^Send in (42|41) s$/ })
    expect((waiting as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('contact-recently-sent').textContent).toBe('A code was sent to this address less than a minute ago. You can ask for a new one when the countdown ends.')
    expect(screen.queryByRole('alert')).toBeNull()
    // Another address does not wait.
    await userEvent.type(screen.getByLabelText('New e-mail address'), '.uk')
    expect((screen.getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false)
    expect(screen.queryByTestId('contact-recently-sent')).toBeNull()
  })

  it('counts a refused resend down from what the server said', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await userEvent.click(screen.getByRole('button', { name: 'Change e-mail address' }))
    await userEvent.type(screen.getByLabelText('New e-mail address'), 'ann.lee@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByLabelText('Verification code')
    // The minute is over on this page's clock, but the server counts from another send.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 61_000)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1100))
    })
    server.failNext('POST', '/v1/auth/verification', recently())
    await userEvent.click(screen.getByRole('button', { name: 'Resend code' }))
    expect(await screen.findByRole('button', { name: /^Resend in (42|41) s$/ })).toBeDefined()
    expect(screen.queryByRole('alert')).toBeNull()
    vi.restoreAllMocks()
  })
})

describe('AccountHome: sign-in methods', () => {
  const GOOGLE = { id: 'google', name: 'Google', icon: '' }
  const GITHUB = { id: 'github', name: 'GitHub', icon: 'https://github.example/mark.svg' }
  const ANN_ON_GITHUB = { ...ANN, providers: [{ id: 'github', provider_user_id: '5813', name: 'ann-codes' }] }

  function methodRow(name: string) {
    return screen.getAllByTestId('sign-in-method').find((row) => within(row).queryByText(name, { exact: true }))!
  }

  it('is absent when the operator configured no provider', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    await waitFor(() => expect(server.requestsTo('GET', '/v1/auth/providers')).toHaveLength(1))
    expect(screen.queryByRole('region', { name: 'Sign-in methods' })).toBeNull()
  })

  it('lists every configured provider with the account linked at it, or a way to link one', async () => {
    const server = new FakeIdentityServer(ANN_ON_GITHUB)
    server.providers = [GOOGLE, GITHUB]
    await showPage(server, [ANN.sub])
    const section = await screen.findByRole('region', { name: 'Sign-in methods' })
    const list = within(section).getByRole('list', { name: 'Linked accounts' })
    expect(within(list).getAllByRole('listitem').map((row) => [row.dataset.provider, row.dataset.linked, within(row).getByTestId('sign-in-method-status').textContent])).toEqual([
      ['google', 'false', 'Not linked'],
      ['github', 'true', 'Linked as ann-codes'],
    ])
    expect(within(methodRow('Google')).getByRole('button', { name: 'Link your Google account' })).toBeDefined()
    expect(within(methodRow('GitHub')).getByRole('button', { name: 'Unlink your GitHub account' })).toBeDefined()
    // The operator's icon, or the generic one.
    expect(within(methodRow('GitHub')).getByTestId('provider-icon').getAttribute('src')).toBe(GITHUB.icon)
    expect(within(methodRow('Google')).getByTestId('provider-icon-generic')).toBeDefined()
  })

  it('links a provider: asks for its sign-in URL with the callback page, remembers the way back, and leaves for it', async () => {
    const server = new FakeIdentityServer(ANN)
    server.providers = [GOOGLE]
    await showPage(server, [ANN.sub], 'ko')
    await userEvent.click(await screen.findByRole('button', { name: 'Google 계정 연결' }))
    await waitFor(() => expect(leave.to).toHaveBeenCalledTimes(1))
    const [asked] = server.requestsTo('GET', '/v1/auth/provider/uri')
    expect(asked!.query).toMatchObject({ provider_id: 'google', redirect_uri: `${window.location.origin}/auth/callback` })
    expect(leave.to).toHaveBeenCalledWith(`https://google.example/authorize?state=${asked!.query.state}`)
    expect(JSON.parse(sessionStorage.getItem('cumulus:provider-sign-in')!)).toEqual({ providerId: 'google', mode: 'bind', returnTo: '/ko/account/home#sign-in-methods', locale: 'ko' })
  })

  it('unlinks after a confirmation and says so', async () => {
    const server = new FakeIdentityServer(ANN_ON_GITHUB)
    server.providers = [GOOGLE, GITHUB]
    await showPage(server, [ANN.sub])
    await userEvent.click(await screen.findByRole('button', { name: 'Unlink your GitHub account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Unlink GitHub?' })
    expect(within(dialog).getByText('You will no longer be able to sign in to Cumulus with this GitHub account. You can link it again later.')).toBeDefined()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }))
    expect(await screen.findByText('GitHub is no longer linked to your account.')).toBeDefined()
    expect(server.requestsTo('DELETE', '/v1/user/provider/github')).toHaveLength(1)
    expect(within(methodRow('GitHub')).getByTestId('sign-in-method-status').textContent).toBe('Not linked')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('shows the server’s refusal to unlink the last way to sign in, in the page language', async () => {
    const server = new FakeIdentityServer({ ...ANN_ON_GITHUB, password: '' })
    server.providers = [GITHUB]
    server.failNext('DELETE', '/v1/user/provider/github', errorReply(400, 'failed_precondition', 9, { locale: 'ko', message: '마지막 로그인 방법은 연결 해제할 수 없습니다' }))
    await showPage(server, [ANN.sub], 'ko')
    await userEvent.click(await screen.findByRole('button', { name: 'GitHub 계정 연결 해제' }))
    const dialog = await screen.findByRole('dialog', { name: 'GitHub 연결을 해제할까요?' })
    await userEvent.click(within(dialog).getByRole('button', { name: '연결 해제' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('마지막 로그인 방법은 연결 해제할 수 없습니다')
    expect(within(methodRow('GitHub')).getByTestId('sign-in-method-status').textContent).toBe('ann-codes(으)로 연결됨')
  })

  it('offers to try again when the providers cannot be loaded', async () => {
    const server = new FakeIdentityServer(ANN_ON_GITHUB)
    server.providers = [GITHUB]
    server.failNext('GET', '/v1/auth/providers', errorReply(503, 'unavailable', 14, { locale: 'en-US', message: 'The service is busy' }))
    await showPage(server, [ANN.sub])
    const section = await screen.findByRole('region', { name: 'Sign-in methods' })
    await waitFor(() => expect(within(section).getByRole('alert').textContent).toBe('The sign-in methods could not be loaded: The service is busy'))
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }))
    expect(await within(section).findByRole('list', { name: 'Linked accounts' })).toBeDefined()
  })
})

describe('AccountHome: connected apps', () => {
  const TV: ConnectedApp = {
    client: { client_id: 'tv-app', name: 'Living Room TV', logo: 'https://tv.example/logo.png' },
    scopes: [
      { id: 'openid', description: 'Confirm who you are' },
      { id: 'pan', description: 'See and manage the files in your drive' },
    ],
    granted_at: '2026-03-14T09:30:00Z',
  }
  const NOTES: ConnectedApp = { client: { client_id: 'notes-app', name: 'Notes', logo: '' }, scopes: [{ id: 'profile', description: 'See your name and picture' }], granted_at: '2026-04-02T18:00:00Z' }

  function appRow(name: string) {
    return screen.getAllByTestId('connected-app').find((row) => within(row).queryByText(name, { exact: true }))!
  }

  async function showApps(apps: ConnectedApp[], locale: 'en-US' | 'ko' | 'zh-CN' = 'en-US') {
    const server = new FakeIdentityServer(ANN)
    server.connectedApps = apps
    await showPage(server, [ANN.sub], locale)
    return server
  }

  it('lists each app with its logo (or a generic mark), when it was allowed and what it may do, asking in the page language', async () => {
    const server = await showApps([TV, NOTES])
    const section = screen.getByRole('region', { name: 'Connected apps' })
    const list = await within(section).findByRole('list', { name: 'Apps with access to your account' })
    const date = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(iso))
    expect(
      within(list)
        .getAllByTestId('connected-app')
        .map((row) => ({ name: within(row).getByTestId('connected-app-name').textContent, granted: within(row).getByTestId('connected-app-granted').textContent, scopes: within(row).getAllByRole('listitem').map((item) => item.textContent) })),
    ).toEqual([
      { name: 'Living Room TV', granted: `Allowed on ${date(TV.granted_at)}`, scopes: ['Confirm who you are', 'See and manage the files in your drive'] },
      { name: 'Notes', granted: `Allowed on ${date(NOTES.granted_at)}`, scopes: ['See your name and picture'] },
    ])
    expect(within(appRow('Living Room TV')).getByRole('list', { name: 'What Living Room TV can do' })).toBeDefined()
    expect(within(appRow('Living Room TV')).getByTestId('app-logo').getAttribute('src')).toBe(TV.client.logo)
    expect(within(appRow('Notes')).getByTestId('app-logo-generic')).toBeDefined()
    expect(within(appRow('Notes')).getByRole('button', { name: 'Disconnect Notes' })).toBeDefined()
    expect(server.requestsTo('GET', '/v1/user/authorize/clients')).toEqual([expect.objectContaining({ query: { locale: 'en-US' }, authorization: `Bearer token-${ANN.sub}` })])
  })

  it('keeps its heading and says so when no app is connected', async () => {
    await showApps([])
    const section = screen.getByRole('region', { name: 'Connected apps' })
    expect((await within(section).findByTestId('connected-apps-empty')).textContent).toBe('No apps are connected to your account.')
    expect(within(section).queryByRole('list')).toBeNull()
    expect(within(section).queryByRole('button')).toBeNull()
  })

  it('disconnects after a confirmation, drops the app, says so politely and moves the focus to the next app', async () => {
    const server = await showApps([TV, NOTES])
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Living Room TV' }))
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Living Room TV?' })
    expect(within(dialog).getByText('Living Room TV loses access to your account at once and is signed out. To use it again, you will have to allow it again.')).toBeDefined()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }))

    const section = screen.getByRole('region', { name: 'Connected apps' })
    expect((await within(section).findByRole('status')).textContent).toBe('Living Room TV was disconnected and can no longer reach your account.')
    expect(server.requestsTo('DELETE', '/v1/user/authorize/clients/tv-app')).toEqual([expect.objectContaining({ authorization: `Bearer token-${ANN.sub}` })])
    expect(within(section).getAllByTestId('connected-app-name').map((name) => name.textContent)).toEqual(['Notes'])
    expect(screen.queryByRole('dialog')).toBeNull()
    // Its button is gone: the focus goes to the next app's, not to the page's body.
    await waitFor(() => expect(document.activeElement).toBe(within(section).getByRole('button', { name: 'Disconnect Notes' })))

    // The last one: the empty list's text takes the focus.
    await userEvent.click(within(section).getByRole('button', { name: 'Disconnect Notes' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Disconnect Notes?' })).getByRole('button', { name: 'Disconnect' }))
    const empty = await within(section).findByTestId('connected-apps-empty')
    await waitFor(() => expect(document.activeElement).toBe(empty))
    expect(within(section).getByRole('status').textContent).toBe('Notes was disconnected and can no longer reach your account.')
  })

  it('closing the confirmation sends nothing and gives the focus back to the Disconnect button', async () => {
    // Regression: DialogShell left the focus on <body> after closing (Radix returns it only to a
    // Dialog.Trigger, and the account page's dialogs are opened by plain buttons).
    const server = await showApps([TV])
    const button = await screen.findByRole('button', { name: 'Disconnect Living Room TV' })
    await userEvent.click(button)
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(button))
    expect(server.requestsTo('DELETE', '/v1/user/authorize/clients/tv-app')).toHaveLength(0)
    expect(screen.getAllByTestId('connected-app')).toHaveLength(1)
  })

  it('shows a refusal in the dialog in the page language and keeps the app', async () => {
    const server = new FakeIdentityServer(ANN)
    server.connectedApps = [TV]
    server.failNext('DELETE', '/v1/user/authorize/clients/tv-app', errorReply(503, 'unavailable', 14, { locale: 'ko', message: '서비스를 일시적으로 사용할 수 없습니다' }))
    await showPage(server, [ANN.sub], 'ko')
    await userEvent.click(await screen.findByRole('button', { name: 'Living Room TV 연결 해제' }))
    const dialog = await screen.findByRole('dialog', { name: 'Living Room TV 연결을 해제할까요?' })
    await userEvent.click(within(dialog).getByRole('button', { name: '연결 해제' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('서비스를 일시적으로 사용할 수 없습니다')
    expect(screen.getAllByTestId('connected-app-name').map((name) => name.textContent)).toEqual(['Living Room TV'])
  })

  it('takes an app already disconnected elsewhere (not_found) as disconnected', async () => {
    const server = await showApps([TV])
    // Another tab disconnected it after this page loaded the list.
    server.connectedApps = []
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Living Room TV' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disconnect' }))
    expect(await screen.findByText('Living Room TV was disconnected and can no longer reach your account.')).toBeDefined()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByTestId('connected-apps-empty')).toBeDefined()
  })

  it('offers to try again when the apps cannot be loaded', async () => {
    const server = new FakeIdentityServer(ANN)
    server.connectedApps = [NOTES]
    server.failNext('GET', '/v1/user/authorize/clients', errorReply(503, 'unavailable', 14, { locale: 'en-US', message: 'The service is busy' }))
    await showPage(server, [ANN.sub])
    const section = screen.getByRole('region', { name: 'Connected apps' })
    await waitFor(() => expect(within(section).getByRole('alert').textContent).toBe('The connected apps could not be loaded: The service is busy'))
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }))
    expect(await within(section).findByRole('list', { name: 'Apps with access to your account' })).toBeDefined()
    expect(server.requestsTo('GET', '/v1/user/authorize/clients')).toHaveLength(2)
  })

  it('reads in Simplified Chinese, the date written the Chinese way', async () => {
    const server = await showApps([NOTES], 'zh-CN')
    const section = screen.getByRole('region', { name: '已连接的应用' })
    const row = await within(section).findByTestId('connected-app')
    expect(within(row).getByTestId('connected-app-granted').textContent).toBe(`于 ${new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium' }).format(new Date(NOTES.granted_at))} 授权`)
    expect(within(row).getByRole('button', { name: '与 Notes 断开连接' }).textContent).toBe('断开连接')
    expect(server.requestsTo('GET', '/v1/user/authorize/clients')[0]!.query).toEqual({ locale: 'zh-CN' })
  })
})

describe('AccountHome: signed-in devices', () => {
  const WEB = { client_id: WEB_CLIENT_ID, name: 'Cumulus Web', logo: '' }
  const ANDROID = { client_id: 'cumulus-android', name: 'Cumulus for Android', logo: '' }
  const session = (id: string, device: Partial<UserSession['device']>, overrides: Partial<UserSession> = {}): UserSession => ({
    id,
    client: WEB,
    device: { name: '', browser: '', os: '', type: '', ...device },
    ip: '',
    created_at: '2026-03-01T10:00:00Z',
    last_active_at: '2026-05-02T08:00:00Z',
    current: false,
    ...overrides,
  })
  const HERE = session('s-here', { browser: 'Firefox', os: 'macOS', type: 'desktop' }, { current: true, ip: '203.0.113.7', created_at: '2026-02-10T09:00:00Z', last_active_at: '2026-05-02T09:00:00Z' })
  const CHROME = session('s-chrome', { browser: 'Chrome', os: 'Windows', type: 'desktop' }, { ip: '198.51.100.23' })
  const PIXEL = session('s-pixel', { name: "Ann's Pixel 8", browser: 'Cumulus', os: 'Android 14', type: 'mobile' }, { client: ANDROID, ip: '2001:db8:85a3::8a2e:370:7334', created_at: '2026-04-20T18:30:00Z', last_active_at: '2026-05-01T21:00:00Z' })
  const IPAD = session('s-ipad', { browser: 'Safari', type: 'tablet' })
  const TV = session('s-tv', { os: 'tvOS', type: 'tv' })
  const UNKNOWN = session('s-unknown', {}, { client: { client_id: 'old-app', name: '', logo: '' }, created_at: '', last_active_at: '' })

  const REGION = "Where you're signed in"
  const date = (iso: string, locale = 'en-US') => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso))
  const dateTime = (iso: string, locale = 'en-US') => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
  const titles = (section: HTMLElement) => within(section).queryAllByTestId('session-title').map((title) => title.textContent)

  async function showSessions(sessions: UserSession[], locale: 'en-US' | 'ko' | 'zh-CN' = 'en-US') {
    const server = new FakeIdentityServer(ANN)
    server.sessions = sessions
    await showPage(server, [ANN.sub], locale)
    return server
  }

  it('lists where the account is signed in, this device first and marked, without its own Sign out', async () => {
    // The server orders by last activity; this device is not first there.
    const server = await showSessions([CHROME, HERE, PIXEL, IPAD, TV, UNKNOWN])
    const section = screen.getByRole('region', { name: REGION })
    const list = await within(section).findByRole('list', { name: 'Signed-in devices' })
    const rows = within(list).getAllByTestId('user-session')
    expect(
      rows.map((row) => ({
        title: within(row).getByTestId('session-title').textContent,
        icon: within(row).getByTestId('session-device-icon').dataset.kind,
        current: within(row).queryByTestId('session-current')?.textContent ?? null,
        button: within(row).queryByRole('button')?.getAttribute('aria-label') ?? null,
      })),
    ).toEqual([
      { title: 'Firefox on macOS', icon: 'monitor', current: 'This device', button: null },
      { title: 'Chrome on Windows', icon: 'monitor', current: null, button: 'Sign out Chrome on Windows' },
      { title: "Ann's Pixel 8", icon: 'phone', current: null, button: "Sign out Ann's Pixel 8" },
      { title: 'Safari', icon: 'phone', current: null, button: 'Sign out Safari' },
      { title: 'tvOS', icon: 'tv', current: null, button: 'Sign out tvOS' },
      { title: 'Unknown device', icon: 'generic', current: null, button: 'Sign out Unknown device' },
    ])
    expect(rows[0]!.dataset.current).toBe('true')
    // The icon is decorative: the title says what the device is.
    expect(within(rows[0]!).getByTestId('session-device-icon').querySelector('svg')!.getAttribute('aria-hidden')).toBe('true')

    const pixel = rows[2]!
    expect(within(pixel).getByTestId('session-app').textContent).toBe('Cumulus for Android')
    expect(within(pixel).getByTestId('session-signed-in').textContent).toBe(`Signed in ${date(PIXEL.created_at)}`)
    expect(within(pixel).getByTestId('session-last-active').textContent).toBe(`Last active ${dateTime(PIXEL.last_active_at)}`)
    expect(within(pixel).getByTestId('session-ip').textContent).toBe('From 2001:db8:85a3::8a2e:370:7334')
    expect(within(rows[0]!).getByTestId('session-ip').textContent).toBe('From 203.0.113.7')
    // This device is in use now (its stored activity is only its last token renewal).
    expect(within(rows[0]!).getByTestId('session-last-active').textContent).toBe('Active now')
    // Nothing is made up for what the server does not know.
    const unknown = rows[5]!
    expect(within(unknown).queryByTestId('session-app')).toBeNull()
    expect(within(unknown).queryByTestId('session-signed-in')).toBeNull()
    expect(within(unknown).queryByTestId('session-last-active')).toBeNull()
    expect(within(unknown).queryByTestId('session-ip')).toBeNull()

    expect(within(section).getByRole('button', { name: 'Sign out of all other devices' })).toBeDefined()
    expect(server.requestsTo('GET', '/v1/user/sessions')).toEqual([expect.objectContaining({ authorization: `Bearer token-${ANN.sub}` })])
  })

  it('offers no Sign out of all other devices when this is the only one', async () => {
    await showSessions([HERE])
    const section = screen.getByRole('region', { name: REGION })
    expect(await within(section).findAllByTestId('user-session')).toHaveLength(1)
    expect(within(section).queryByRole('button')).toBeNull()
  })

  it('signs a device out after a confirmation, drops it, says so and moves the focus to the next one, else the previous one, else the list', async () => {
    const server = await showSessions([HERE, CHROME, PIXEL, UNKNOWN])
    const section = screen.getByRole('region', { name: REGION })
    await userEvent.click(await within(section).findByRole('button', { name: 'Sign out Chrome on Windows' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign out Chrome on Windows?' })
    expect(within(dialog).getByText('Chrome on Windows is signed out of your account at once. To use your account there again, you will have to sign in again.')).toBeDefined()
    // On a phone the device's name wraps in the title rather than being cut (DialogShell's default).
    expect(within(dialog).getByRole('heading', { name: 'Sign out Chrome on Windows?' }).className).not.toMatch(/\btruncate\b/)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }))

    expect((await within(section).findByRole('status')).textContent).toBe('Chrome on Windows was signed out.')
    expect(server.requestsTo('DELETE', '/v1/user/sessions/s-chrome')).toEqual([expect.objectContaining({ authorization: `Bearer token-${ANN.sub}` })])
    expect(titles(section)).toEqual(['Firefox on macOS', "Ann's Pixel 8", 'Unknown device'])
    expect(screen.queryByRole('dialog')).toBeNull()
    // Its button is gone: the focus goes to the next device's, not to the page's body.
    await waitFor(() => expect(document.activeElement).toBe(within(section).getByRole('button', { name: "Sign out Ann's Pixel 8" })))

    // The last one: the previous device's button.
    await userEvent.click(within(section).getByRole('button', { name: 'Sign out Unknown device' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Sign out Unknown device?' })).getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(titles(section)).toEqual(['Firefox on macOS', "Ann's Pixel 8"]))
    await waitFor(() => expect(document.activeElement).toBe(within(section).getByRole('button', { name: "Sign out Ann's Pixel 8" })))

    // No other device left: the list takes the focus, and Sign out of all other devices goes.
    await userEvent.click(within(section).getByRole('button', { name: "Sign out Ann's Pixel 8" }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: "Sign out Ann's Pixel 8?" })).getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(titles(section)).toEqual(['Firefox on macOS']))
    await waitFor(() => expect(document.activeElement).toBe(within(section).getByRole('list', { name: 'Signed-in devices' })))
    expect(within(section).getByRole('status').textContent).toBe("Ann's Pixel 8 was signed out.")
    expect(within(section).queryByRole('button')).toBeNull()
    expect(server.sessions.map((s) => s.id)).toEqual(['s-here'])
  })

  it('closing the confirmation sends nothing and gives the focus back to the Sign out button', async () => {
    const server = await showSessions([HERE, CHROME])
    const button = await screen.findByRole('button', { name: 'Sign out Chrome on Windows' })
    await userEvent.click(button)
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(button))
    expect(server.requestsTo('DELETE', '/v1/user/sessions/s-chrome')).toHaveLength(0)
    expect(screen.getAllByTestId('user-session')).toHaveLength(2)
  })

  it('takes a session already ended elsewhere (not_found) as signed out', async () => {
    const server = await showSessions([HERE, CHROME])
    // Signed out on that computer (or from another tab) after this page loaded the list.
    server.sessions = [HERE]
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out Chrome on Windows' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }))
    expect(await screen.findByText('Chrome on Windows was signed out.')).toBeDefined()
    expect(server.requestsTo('DELETE', '/v1/user/sessions/s-chrome')).toHaveLength(1)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(titles(screen.getByRole('region', { name: REGION }))).toEqual(['Firefox on macOS'])
  })

  it('shows a refusal in the dialog and keeps the session', async () => {
    const server = new FakeIdentityServer(ANN)
    server.sessions = [HERE, CHROME]
    server.failNext('DELETE', '/v1/user/sessions/s-chrome', errorReply(503, 'unavailable', 14, { locale: 'en-US', message: 'The service is busy' }))
    await showPage(server, [ANN.sub])
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out Chrome on Windows' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The service is busy')
    expect(titles(screen.getByRole('region', { name: REGION }))).toEqual(['Firefox on macOS', 'Chrome on Windows'])
  })

  it('signs out of all other devices after a confirmation and says how many', async () => {
    const server = await showSessions([CHROME, HERE, PIXEL, UNKNOWN])
    const section = screen.getByRole('region', { name: REGION })
    await userEvent.click(await within(section).findByRole('button', { name: 'Sign out of all other devices' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign out other devices?' })
    expect(within(dialog).getByText('Every device and app signed in to your account, except this one, is signed out at once.')).toBeDefined()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }))

    expect((await within(section).findByRole('status')).textContent).toBe('Signed out of 3 other devices.')
    expect(server.requestsTo('DELETE', '/v1/user/sessions/others')).toEqual([expect.objectContaining({ authorization: `Bearer token-${ANN.sub}` })])
    // Nothing was sent per session.
    expect(server.requests.filter((r) => r.method === 'DELETE' && r.path !== '/v1/user/sessions/others')).toEqual([])
    expect(titles(section)).toEqual(['Firefox on macOS'])
    expect(within(section).queryByRole('button')).toBeNull()
    await waitFor(() => expect(document.activeElement).toBe(within(section).getByRole('list', { name: 'Signed-in devices' })))
  })

  it('says "1 other device" when one was signed out', async () => {
    await showSessions([HERE, PIXEL])
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }))
    expect((await within(screen.getByRole('region', { name: REGION })).findByRole('status')).textContent).toBe('Signed out of 1 other device.')
  })

  it('offers to try again when the devices cannot be loaded', async () => {
    const server = new FakeIdentityServer(ANN)
    server.sessions = [HERE, CHROME]
    server.failNext('GET', '/v1/user/sessions', errorReply(503, 'unavailable', 14, { locale: 'en-US', message: 'The service is busy' }))
    await showPage(server, [ANN.sub])
    const section = screen.getByRole('region', { name: REGION })
    await waitFor(() => expect(within(section).getByRole('alert').textContent).toBe('The signed-in devices could not be loaded: The service is busy'))
    expect(within(section).queryByRole('list')).toBeNull()
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }))
    expect(await within(section).findByRole('list', { name: 'Signed-in devices' })).toBeDefined()
    expect(titles(section)).toEqual(['Firefox on macOS', 'Chrome on Windows'])
    expect(server.requestsTo('GET', '/v1/user/sessions')).toHaveLength(2)
  })

  it('reads in Simplified Chinese, dates written the Chinese way', async () => {
    await showSessions([HERE, CHROME, UNKNOWN], 'zh-CN')
    const section = screen.getByRole('region', { name: '你已登录的设备' })
    const rows = await within(section).findAllByTestId('user-session')
    expect(titles(section)).toEqual(['macOS 上的 Firefox', 'Windows 上的 Chrome', '未知设备'])
    expect(within(rows[0]!).getByTestId('session-current').textContent).toBe('此设备')
    expect(within(rows[1]!).getByTestId('session-signed-in').textContent).toBe(`于 ${date(CHROME.created_at, 'zh-CN')} 登录`)
    expect(within(rows[1]!).getByTestId('session-last-active').textContent).toBe(`最近活动：${dateTime(CHROME.last_active_at, 'zh-CN')}`)
    expect(within(rows[1]!).getByTestId('session-ip').textContent).toBe('来自 198.51.100.23')
    // The product's own web app is named in the page's language, not as the server configured it.
    expect(within(rows[0]!).getByTestId('session-app').textContent).toBe('Cumulus 网页版')
    expect(within(rows[1]!).getByRole('button', { name: '将 Windows 上的 Chrome 退出登录' }).textContent).toBe('退出登录')

    await userEvent.click(within(section).getByRole('button', { name: '在所有其他设备上退出登录' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: '要退出其他设备上的登录吗？' })).getByRole('button', { name: '退出登录' }))
    expect((await within(section).findByRole('status')).textContent).toBe('已在 2 台其他设备上退出登录。')
  })
})

describe('AccountHome: accounts and sign-out', () => {
  it('signs out through the SDK and opens the login page', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    const client = mock.client!
    const signOut = vi.spyOn(client, 'signOut')

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))

    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeDefined()
    expect(signOut).toHaveBeenCalledOnce()
    expect(server.requestsTo('POST', '/v1/auth/revoke')[0]!.body).toEqual({ token: `refresh-${ANN.sub}`, token_type_hint: 'refresh_token' })
    expect(client.credentials()).toBeNull()
  })

  it('lists the remembered accounts, current first, and switches to another one', async () => {
    const server = new FakeIdentityServer(ANN, BOB)
    await showPage(server, [ANN.sub, BOB.sub])
    const client = mock.client!
    const switchAccount = vi.spyOn(client, 'switchAccount')

    const list = screen.getByRole('list', { name: 'Signed-in accounts' })
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(within(items[0]!).getByText('Current')).toBeDefined()
    expect(within(items[0]!).getByText('Ann')).toBeDefined()
    // The other account's name comes from the public profile query.
    expect(await within(items[1]!).findByText('Bob')).toBeDefined()

    // A message about Ann's account must not stay on the page once Bob's account is shown.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => undefined }, configurable: true })
    await userEvent.click(screen.getByRole('button', { name: 'Copy user ID' }))
    expect(await screen.findByText('User ID copied to the clipboard.')).toBeDefined()

    await userEvent.click(screen.getByRole('button', { name: 'Switch to Bob' }))

    expect(await screen.findByText('Switched to Bob.')).toBeDefined()
    expect(switchAccount).toHaveBeenCalledWith(BOB.sub)
    expect(client.credentials()?.sub).toBe(BOB.sub)
    expect(screen.getByTestId('account-name').textContent).toBe('Bob')
    expect(screen.getByTestId('account-email').textContent).toBe('bob@example.com')
    expect(screen.getByRole('button', { name: 'Switch to Ann' })).toBeDefined()
    expect(screen.queryByText('User ID copied to the clipboard.')).toBeNull()
  })

  it('links to the login page to add another account, and back here afterwards', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub], 'ko')
    expect(screen.getByRole('link', { name: '다른 계정 추가' }).getAttribute('href')).toBe('/ko/account/login?add=1&redirect=%2Fko%2Faccount%2Fhome')
  })

  it('links to the unregister page from the danger zone', async () => {
    const server = new FakeIdentityServer(ANN)
    await showPage(server, [ANN.sub])
    const zone = screen.getByRole('region', { name: 'Delete account' })
    expect(within(zone).getByRole('link', { name: 'Delete account…' }).getAttribute('href')).toBe('/account/unregister')
  })
})

describe('AccountHome: guest accounts', () => {
  it('invites a guest to keep the account by binding an e-mail, and hides password changes meanwhile', async () => {
    const guest = aProfile({ sub: 'anon_123456789', name: '', email: '', password: '' })
    const server = new FakeIdentityServer(guest)
    await showPage(server, [guest.sub])
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Guest')
    const notice = screen.getByTestId('anonymous-notice')
    expect(within(notice).getByText('You are using a guest account')).toBeDefined()
    // A separate account starts empty: offered, but second.
    expect(within(notice).getByRole('link', { name: 'Or start a new, empty account' }).getAttribute('href')).toBe('/account/login?tab=sign-up')
    expect(screen.queryByRole('region', { name: 'Security' })).toBeNull()
    // A guest cannot let apps in (the consent page asks for a real account), so no Connected apps.
    expect(screen.queryByRole('region', { name: 'Connected apps' })).toBeNull()
    expect(server.requestsTo('GET', '/v1/user/authorize/clients')).toHaveLength(0)
    // Nor where it is signed in: a guest account lives on this device only.
    expect(screen.queryByRole('region', { name: "Where you're signed in" })).toBeNull()
    expect(server.requestsTo('GET', '/v1/user/sessions')).toHaveLength(0)

    // Keeping it: the e-mail form opens, and the bound address makes it a registered account in place.
    await userEvent.click(within(notice).getByRole('button', { name: 'Keep this account' }))
    await userEvent.type(screen.getByLabelText('New e-mail address'), 'guest@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await userEvent.type(await screen.findByLabelText('Verification code'), GOOD_CODE)
    await userEvent.click(screen.getByRole('button', { name: 'Verify and save' }))
    expect(await screen.findByText('Your e-mail address is now guest@example.com.')).toBeDefined()
    expect(server.requestsTo('PATCH', '/v1/user/contact')).toEqual([
      expect.objectContaining({ body: { email: 'guest@example.com', verification_token: VERIFICATION_TOKEN }, authorization: `Bearer token-${guest.sub}` }),
    ])
    expect(screen.queryByTestId('anonymous-notice')).toBeNull()
    expect(screen.getByRole('region', { name: 'Security' })).toBeDefined()
  })
})

describe('AccountHome: signed out', () => {
  it('sends a visitor whose session ended to the login page', async () => {
    const server = new FakeIdentityServer(ANN)
    mock.client = signedInClient(server, [])
    await refreshSession(mock.client)
    renderPage(<AccountHome />, { path: '/account/home', routes: { '/account/login': LOGIN_PAGE } })
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeDefined()
  })
})
