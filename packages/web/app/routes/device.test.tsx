import { OAuthErrors } from '@cumulus/protocol'
import type { UserInfo } from '@cumulus/sdk'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../test/render'
import { errorReply, fakeIdentityService, type RecordedCall } from '../components/auth/testing/fake-identity-service'
import { DevicePage } from '../oauth/device-page'
import { refreshSession, sessionSnapshot } from '../session/session-store'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))

const CODE = 'WDJB-MJHT'
const EXPIRED = errorReply(400, 'expired_token', OAuthErrors.expired_token.code, { 'en-US': 'This code has expired. Get a new one on your device', ko: '코드가 만료되었습니다. 기기에서 새 코드를 받으세요' })

/** The device endpoints as identity answers them: one pending device behind CODE. */
function deviceHandlers() {
  return {
    'GET /v1/user/device/info': (call: RecordedCall) =>
      call.query.get('user_code') === CODE
        ? { user_code: CODE, client: { client_id: 'tv-app', name: 'Living Room TV', logo: 'https://tv.example/logo.png' }, scopes: [{ id: 'pan', description: call.query.get('locale') === 'ko' ? '드라이브의 파일 보기, 추가, 변경 및 삭제' : 'See, add, change and delete the files in your drive' }], expires_in: 540 }
        : errorReply(400, 'invalid_grant', OAuthErrors.invalid_grant.code, { 'en-US': 'This code is not valid', ko: '유효하지 않은 코드입니다' })(call),
    'POST /v1/user/device/authorize': () => ({}),
  }
}

async function showDevicePage(handlers: Parameters<typeof fakeIdentityService>[0] = deviceHandlers(), { locale = 'en-US', search = '' }: { locale?: 'en-US' | 'ko'; search?: string } = {}) {
  service.current = fakeIdentityService(handlers, { locale })
  await service.current.client.signIn({ username: 'ann@example.com', password: 'correct horse' })
  await act(() => refreshSession(service.current!.client))
  const user: UserInfo = sessionSnapshot().user!
  return renderPage(<DevicePage user={user} />, { locale, path: '/device', search })
}

const lookups = () => service.current!.callsTo('GET /v1/user/device/info').map((c) => c.query.get('user_code'))
const decisions = () => service.current!.callsTo('POST /v1/user/device/authorize').map((c) => c.body)

describe('the device page', () => {
  it('checks the code before sending it: required, then eight letters or digits', async () => {
    await showDevicePage()
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    const field = screen.getByLabelText('Code from your device')
    expect(screen.getByText('Enter the code your device shows.')).toBeDefined()
    expect(document.activeElement).toBe(field)
    await userEvent.type(field, 'WDJB-MJ')
    expect(screen.getByText('The code has eight letters or digits, like WDJB-MJHT.')).toBeDefined()
    expect(lookups()).toEqual([])
  })

  it('takes the code in lower case without its dash, shows the app and the code to compare, and connects the device on Allow', async () => {
    await showDevicePage()
    await userEvent.type(screen.getByLabelText('Code from your device'), 'wdjbmjht')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    const heading = await screen.findByRole('heading', { level: 1, name: 'Living Room TV wants to access your Cumulus account' })
    // The focus follows the step, so a screen reader announces it.
    expect(document.activeElement).toBe(heading)
    expect(lookups()).toEqual([CODE])
    expect(screen.getByTestId('device-user-code').textContent).toBe(CODE)
    expect(within(screen.getByTestId('oauth-scopes')).getByRole('listitem').textContent).toBe('See, add, change and delete the files in your drive')
    await userEvent.click(screen.getByRole('button', { name: 'Allow' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Device connected' })).toBeDefined()
    expect(screen.getByText('You can return to your device.')).toBeDefined()
    expect(decisions()).toEqual([{ user_code: CODE, consent: true }])
  })

  it('looks a code from the link up at once and records a denial', async () => {
    await showDevicePage(deviceHandlers(), { search: '?user_code=wdjb-mjht' })
    expect(await screen.findByTestId('device-review')).toBeDefined()
    expect(lookups()).toEqual([CODE])
    await userEvent.click(screen.getByRole('button', { name: 'Deny' }))
    const done = await screen.findByTestId('device-done')
    expect(done.dataset.approved).toBe('false')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Request denied')
    expect(decisions()).toEqual([{ user_code: CODE, consent: false }])
  })

  it('shows the server’s refusal of a wrong code in the page language, on the form', async () => {
    await showDevicePage(deviceHandlers(), { locale: 'ko' })
    await userEvent.type(screen.getByLabelText('기기에 표시된 코드'), 'BCDF GHJK')
    await userEvent.click(screen.getByRole('button', { name: '계속' }))
    expect((await screen.findByRole('alert')).textContent).toBe('유효하지 않은 코드입니다')
    expect(lookups()).toEqual(['BCDF-GHJK'])
    expect(screen.getByLabelText('기기에 표시된 코드')).toBeDefined()
  })

  it('shows an expired code’s refusal on the review step, and lets the user enter another', async () => {
    await showDevicePage({ ...deviceHandlers(), 'POST /v1/user/device/authorize': EXPIRED })
    await userEvent.type(screen.getByLabelText('Code from your device'), CODE)
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Allow' }))
    expect((await screen.findByRole('alert')).textContent).toBe('This code has expired. Get a new one on your device')
    await userEvent.click(screen.getByRole('button', { name: 'Enter another code' }))
    await waitFor(() => expect((screen.getByLabelText('Code from your device') as HTMLInputElement).value).toBe(''))
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
