import type { IdentityClient } from '@cumulus/sdk'
import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderPage } from '../../../test/render'
import { aProfile, FakeIdentityServer, signedInClient } from '../../components/account/fake-identity-server'
import { refreshSession } from '../../session/session-store'
import { clientLoader, HydrateFallback } from './home'

const mock = vi.hoisted(() => ({ client: null as IdentityClient | null }))
vi.mock('../../session/identity-client', () => ({ getIdentityClient: () => mock.client }))

const ANN = aProfile()

function loaderArgs(url: string) {
  return { request: new Request(url), params: {}, context: {}, serverLoader: async () => undefined } as unknown as Parameters<typeof clientLoader>[0]
}

describe('/account/home route', () => {
  beforeEach(() => {
    mock.client = null
  })

  it('runs the auth middleware on hydration too', () => {
    expect(clientLoader.hydrate).toBe(true)
  })

  it('sends a signed-out visitor to the login page, coming back here afterwards', async () => {
    mock.client = signedInClient(new FakeIdentityServer(ANN), [], 'ko')
    await refreshSession(mock.client)
    const thrown = await clientLoader(loaderArgs('https://cumulus.test/ko/account/home')).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get('location')).toBe('/ko/account/login?redirect=%2Fko%2Faccount%2Fhome')
  })

  it('lets a signed-in user in with the loaded session', async () => {
    mock.client = signedInClient(new FakeIdentityServer(ANN), [ANN.sub])
    await refreshSession(mock.client)
    const session = await clientLoader(loaderArgs('https://cumulus.test/account/home'))
    expect(session).toMatchObject({ status: 'signed-in', user: { userId: ANN.sub, nickname: 'Ann' } })
  })

  it('renders an announced loading state while the browser reads the session', () => {
    renderPage(<HydrateFallback />, { locale: 'ms', path: '/account/home' })
    expect(screen.getByRole('status').textContent).toContain('Memuatkan')
  })
})
