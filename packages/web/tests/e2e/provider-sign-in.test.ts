// Sign-in with an identity provider in a real browser: a real OpenID Connect server on 127.0.0.1
// (oauth2-mock-server: discovery, an authorize endpoint that answers at once, signed ID tokens)
// configured as AUTH_PROVIDERS. The login page's "Continue with" button, the trip through the
// provider and back to /auth/callback, sign-up by provider, linking and unlinking on the account
// page (and the server's refusal to unlink the last way in), a refusal at the provider shown in
// Korean, and axe-core on the new views.
import { randomBytes } from 'node:crypto'
import { messageForReason } from '@cumulus/protocol'
import { OAuth2Server } from 'oauth2-mock-server'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import { failedCall, fill, pathOf, seedUser, signInWithPassword, uniqueEmail, waitForPath, welcomeHeading } from './account-utils'
import { e2eTest, expectNoA11yViolations, PHONE, waitForHydration } from './playwright-utils'

/** Who the provider says is signing in (its ID token's claims), set by each test. */
interface Person {
  sub: string
  name: string
  email?: string
}

let person: Person = { sub: 'nobody', name: 'Nobody' }
/** Makes the provider's next authorize answer `error=access_denied` (the user cancelled there). */
let denyNext = false

const idp = new OAuth2Server()
await idp.issuer.keys.generate('RS256')
await idp.start(0, '127.0.0.1')
afterAll(() => idp.stop())
idp.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
  token.payload['sub'] = person.sub
  token.payload['name'] = person.name
  if (person.email) {
    token.payload['email'] = person.email
    token.payload['email_verified'] = true
  }
})
idp.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
  if (!denyNext) return
  denyNext = false
  redirect.url.searchParams.delete('code')
  redirect.url.searchParams.set('error', 'access_denied')
})

const PROVIDER_NAME = 'Local ID'
const test = e2eTest({
  env: { AUTH_PROVIDERS: JSON.stringify([{ id: 'local', kind: 'oidc', name: PROVIDER_NAME, issuer: idp.issuer.url, client_id: 'cumulus-at-local', client_secret: 'local-secret-0123456789' }]) },
})

function someone(name: string, withEmail = true): Person {
  const sub = `idp-${randomBytes(4).toString('hex')}`
  return { sub, name, ...(withEmail ? { email: uniqueEmail(sub) } : {}) }
}

/** The account page's row of the provider in Sign-in methods. */
function methodRow(page: Page) {
  return page.getByRole('region', { name: en.accountHome.providers.title }).getByTestId('sign-in-method').filter({ hasText: PROVIDER_NAME })
}

async function continueWithProvider(page: Page, t = en) {
  await waitForHydration(page)
  await page.getByRole('button', { name: fill(t.oauth.providers.continueWith, { name: PROVIDER_NAME }), exact: true }).click()
}

describe('sign-in with an identity provider', () => {
  test('a new visitor signs up with the provider from the login page, lands on the account linked to it, and may not unlink its only way in', async ({ openPage, server }) => {
    const { page, errors } = await openPage()
    person = someone('Grace Hopper', false)
    await page.goto('/account/login')
    await waitForHydration(page)
    // The buttons appear once the list of providers has loaded.
    const providers = page.getByRole('list', { name: en.oauth.providers.label })
    await providers.getByRole('button').first().waitFor()
    expect(await providers.getByRole('button').allTextContents()).toEqual([fill(en.oauth.providers.continueWith, { name: PROVIDER_NAME })])

    await continueWithProvider(page)
    await waitForPath(page, '/account/home')
    await welcomeHeading(page, 'Grace Hopper').waitFor()
    // The provider's code is spent and gone from the address bar and the history.
    expect(pathOf(page)).toBe('/account/home')
    const user = await server.server.identity.users.findById((await page.getByTestId('account-user-id').textContent())!.trim())
    expect(user?.name).toBe('Grace Hopper')

    const row = methodRow(page)
    await expect.poll(() => row.getAttribute('data-linked')).toBe('true')
    expect(await row.getByTestId('sign-in-method-status').textContent()).toBe(fill(en.accountHome.providers.linkedAs, { name: 'Grace Hopper' }))

    // No password, no e-mail: the provider is the only way in, and the server says so.
    errors.ignore(failedCall('/v1/user/provider/local', 400))
    await row.getByRole('button', { name: fill(en.accountHome.providers.unlinkLabel, { provider: PROVIDER_NAME }) }).click()
    const dialog = page.getByRole('dialog', { name: fill(en.accountHome.providers.confirmTitle, { provider: PROVIDER_NAME }) })
    await dialog.getByRole('button', { name: en.accountHome.providers.unlink, exact: true }).click()
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(messageForReason('last_sign_in_method', 'en-US'))
    await dialog.getByRole('button', { name: en.common.cancel, exact: true }).click()
    expect(await row.getAttribute('data-linked')).toBe('true')
  })

  test('a signed-in user links the provider from the account page, signs in with it later, and unlinks it', async ({ openPage, server }) => {
    const { page } = await openPage()
    const ada = await seedUser(server, { label: 'link', name: 'Ada Lovelace' })
    person = someone('Ada at Local ID')
    await signInWithPassword(page, ada)

    const row = methodRow(page)
    expect(await row.getByTestId('sign-in-method-status').textContent()).toBe(en.accountHome.providers.notLinked)
    await row.getByRole('button', { name: fill(en.accountHome.providers.linkLabel, { provider: PROVIDER_NAME }) }).click()
    // Through the provider and back to the section.
    await page.waitForURL((url) => url.pathname === '/account/home' && url.hash === '#sign-in-methods')
    await page.getByRole('status').filter({ hasText: fill(en.accountHome.providers.justLinked, { provider: PROVIDER_NAME }) }).waitFor()
    await expect.poll(() => methodRow(page).getAttribute('data-linked')).toBe('true')
    expect(await methodRow(page).getByTestId('sign-in-method-status').textContent()).toBe(fill(en.accountHome.providers.linkedAs, { name: 'Ada at Local ID' }))

    // Signed out, the provider now signs in to this same account.
    await page.getByRole('button', { name: en.accountHome.accounts.signOut, exact: true }).click()
    await waitForPath(page, '/account/login')
    await continueWithProvider(page)
    await waitForPath(page, '/account/home')
    await welcomeHeading(page, 'Ada Lovelace').waitFor()
    expect((await page.getByTestId('account-user-id').textContent())?.trim()).toBe(ada.id)

    // With a password to fall back on, unlinking is allowed.
    await methodRow(page).getByRole('button', { name: fill(en.accountHome.providers.unlinkLabel, { provider: PROVIDER_NAME }) }).click()
    await page.getByRole('dialog').getByRole('button', { name: en.accountHome.providers.unlink, exact: true }).click()
    await page.getByRole('status').filter({ hasText: fill(en.accountHome.providers.unlinked, { provider: PROVIDER_NAME }) }).waitFor()
    expect(await methodRow(page).getAttribute('data-linked')).toBe('false')
    expect(await page.getByRole('dialog').count()).toBe(0)
  })

  test('a refusal at the provider is told in Korean on the callback page, which leads back to sign in and keeps where the visitor was heading', async ({ openPage }) => {
    const { page } = await openPage({ locale: 'ko-KR', ...PHONE, colorScheme: 'dark' })
    await page.goto(`/ko/account/login?redirect=${encodeURIComponent('/ko/drive')}`)
    await waitForHydration(page)
    await expectNoA11yViolations(page)
    denyNext = true
    await continueWithProvider(page, ko)

    await waitForPath(page, '/ko/auth/callback')
    expect(new URL(page.url()).search).toBe('')
    await page.getByRole('heading', { level: 1, name: ko.oauth.callback.failedHeading }).waitFor()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(messageForReason('access_denied', 'ko'))
    const back = page.getByRole('link', { name: ko.oauth.callback.backToSignIn, exact: true })
    expect(await back.getAttribute('href')).toBe(`/ko/account/login?redirect=${encodeURIComponent('/ko/drive')}`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await expectNoA11yViolations(page)
  })

  test('/auth/callback opened by itself says no sign-in is in progress', async ({ openPage }) => {
    const { page } = await openPage()
    const response = await page.goto('/auth/callback')
    expect(response?.status()).toBe(200)
    await waitForHydration(page)
    await page.getByRole('heading', { level: 1, name: en.oauth.callback.nothingHeading }).waitFor()
    expect(await page.getByRole('link', { name: en.oauth.callback.backToSignIn, exact: true }).getAttribute('href')).toBe('/account/login')
    await expectNoA11yViolations(page)
  })
})
