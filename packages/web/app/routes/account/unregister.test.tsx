import { GenericErrors } from '@cumulus/protocol'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import { errorReply, fakeIdentityService } from '../../components/auth/testing/fake-identity-service'
import { refreshSession, sessionSnapshot } from '../../session/session-store'
import { clientLoader } from './unregister'
import { UnregisterFlow } from './unregister.flow'

const service = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeIdentityService> | null }))
vi.mock('../../session/identity-client', () => ({ getIdentityClient: () => service.current!.client }))

async function signedIn(handlers: Parameters<typeof fakeIdentityService>[0] = {}) {
  service.current = fakeIdentityService(handlers)
  await service.current.client.signIn({ username: 'ann@example.com', password: 'correct horse' })
  await act(() => refreshSession(service.current!.client))
  service.current.calls.length = 0
}

describe('unregister page', () => {
  beforeEach(() => signedIn())

  it('explains the review period with the configured number of days', () => {
    renderPage(<UnregisterFlow userId="user-1" graceDays={15} />, { path: '/account/unregister' })
    const terms = screen.getByTestId('unregister-terms')
    expect(terms.textContent).toContain('Your account enters a cancellation review period of 15 days.')
    expect(terms.textContent).toContain('signing in to this account is refused')
    expect(terms.textContent).toContain('permanently erased')
  })

  it('requires the password, then deletes through sudo after an explicit confirmation', async () => {
    renderPage(<UnregisterFlow userId="user-1" graceDays={7} />, { path: '/account/unregister', routes: { '/': <p>home page</p> } })
    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }))
    expect(screen.getByText('Enter your password.')).toBeDefined()
    expect(service.current!.calls).toEqual([])

    await userEvent.type(screen.getByLabelText('Password'), 'correct horse')
    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
    expect(service.current!.callsTo('POST /v1/user/sudo').map((c) => c.body)).toEqual([{ password: 'correct horse' }])
    expect(service.current!.callsTo('DELETE /v1/user/me')).toEqual([])
    expect(within(dialog).getByText(/cancellation review for 7 days/)).toBeDefined()

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is scheduled for deletion' })).toBeDefined()
    const deletion = service.current!.callsTo('DELETE /v1/user/me')
    expect(deletion.map((c) => c.query.get('sudo_token'))).toEqual(['sudo-token'])
    expect(service.current!.client.credentials()).toBeNull()
    expect(sessionSnapshot().status).toBe('signed-out')
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/')
  })

  it('keeps the account when the confirmation is cancelled', async () => {
    renderPage(<UnregisterFlow userId="user-1" graceDays={15} />, { path: '/account/unregister' })
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse')
    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep my account' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(service.current!.callsTo('DELETE /v1/user/me')).toEqual([])
    expect(service.current!.client.credentials()?.sub).toBe('user-1')
  })

  it('shows the server’s message for a wrong password and does not delete', async () => {
    await signedIn({ 'POST /v1/user/sudo': errorReply(403, 'permission_denied', GenericErrors.permission_denied.code, { ms: 'Kata laluan salah' }) })
    service.current!.client.setLocale('ms')
    renderPage(<UnregisterFlow userId="user-1" graceDays={15} />, { path: '/account/unregister', locale: 'ms' })
    expect(screen.getByTestId('unregister-terms').textContent).toContain('15 hari')
    await userEvent.type(screen.getByLabelText('Kata laluan'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Padam akaun' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Kata laluan salah')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(service.current!.callsTo('DELETE /v1/user/me')).toEqual([])
  })

  it('explains that a guest account cannot be deleted here', () => {
    renderPage(<UnregisterFlow userId="anon_guest-1" graceDays={15} />, { path: '/account/unregister' })
    expect(screen.getByRole('status').textContent).toContain('Guest accounts have no password')
    expect(screen.queryByLabelText('Password')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete account' })).toBeNull()
  })

  it('sends a signed-out visitor to the login page and back (auth middleware)', async () => {
    service.current = fakeIdentityService()
    await act(() => refreshSession(service.current!.client))
    const thrown = await clientLoader({ request: new Request('http://localhost:3000/id/account/unregister') } as Parameters<typeof clientLoader>[0]).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get('location')).toBe(`/id/account/login?redirect=${encodeURIComponent('/id/account/unregister')}`)
  })
})
