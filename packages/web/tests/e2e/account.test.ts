// The account flows in a real browser against the real server (default CAPTCHA_MODE, auto:
// the SDK fetches its captcha tokens without a challenge while nothing looks risky): sign-up with
// the e-mailed code, profile and VIP state, sign-out and password sign-in, the wrong-password
// message, the auth middleware's ?redirect=, account deletion and the frozen account, guest
// accounts, and several accounts remembered on one browser. No console errors anywhere.
//
// Mind the captcha policy when adding tests here: in auto mode the third failed sign-in from
// 127.0.0.1 makes every later guarded call in this file ask for a challenge. This file fails
// exactly one sign-in by a wrong password on purpose (the frozen account's sign-in has the
// right password, which the service does not count as a failure).
import { ERROR_MESSAGES } from '@cumulus/protocol'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import {
  failedCall,
  fill,
  grantMembership,
  PASSWORD,
  pathOf,
  seedUser,
  signInWithPassword,
  submitEmailSignUp,
  submitPasswordSignIn,
  testIdText,
  uniqueEmail,
  waitForPath,
  welcomeHeading,
} from './account-utils'
import { PHONE, readLatestCode, test, waitForHydration } from './playwright-utils'
import { createActivationCodes } from '@cumulus/identity'

const SIGN_IN_PATH = '/v1/auth/signin'

/** A date as the account page writes it (en-US, medium), in UTC like the test contexts. */
function pageDate(ms: number): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(ms))
}

describe('sign-up and sign-in', () => {
  test('signs up by e-mail with the code from the outbox, sees the profile, signs out and back in with the new password', async ({ openPage, server }) => {
    const { page } = await openPage()
    const email = uniqueEmail('signup')
    const name = 'Ada Lovelace'
    await page.goto('/account/login')

    await submitEmailSignUp(page, server, { email, password: PASSWORD, name })

    // A new account lands on its drive (issue 10), and reaches its profile from the header.
    await waitForPath(page, '/drive')
    await page.getByTestId('drive-empty').waitFor()
    await page.getByTestId('header-account').click()
    await waitForPath(page, '/account/home')
    await welcomeHeading(page, name).waitFor()
    const stored = await server.server.identity.users.findByEmail(email)
    expect(stored, 'the account exists in the database').toBeTruthy()
    await expect.poll(() => testIdText(page, 'account-name')).toBe(name)
    await expect.poll(() => testIdText(page, 'account-email')).toBe(email)
    // The id shown is the account's real id.
    await expect.poll(() => testIdText(page, 'account-user-id')).toBe(stored!.id)
    expect(stored!.id).not.toBe('')
    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('none')
    await expect.poll(() => testIdText(page, 'vip-state')).toBe(en.accountHome.vip.notMember)
    // The new account is the only one remembered, and the current one.
    const entries = page.getByRole('list', { name: en.accountHome.accounts.listLabel }).getByTestId('account-entry')
    await expect.poll(() => entries.count()).toBe(1)
    expect(await entries.first().getAttribute('data-sub')).toBe(stored!.id)
    expect(await entries.first().getAttribute('data-current')).toBe('true')

    await page.getByRole('button', { name: en.accountHome.accounts.signOut, exact: true }).click()
    await waitForPath(page, '/account/login')
    // Signed out: the forms, not the "you are signed in" panel.
    await page.getByRole('tab', { name: en.auth.login.tabSignIn, exact: true }).waitFor()
    expect(await page.getByTestId('signed-in-panel').count()).toBe(0)

    await submitPasswordSignIn(page, email, PASSWORD)
    await waitForPath(page, '/account/home')
    await welcomeHeading(page, name).waitFor()
    await expect.poll(() => testIdText(page, 'account-email')).toBe(email)
    await expect.poll(() => testIdText(page, 'account-user-id')).toBe(stored!.id)
  })

  test('a reload while waiting for the code keeps the form and the code; a second tab is told how long to wait', async ({ openPage, server }) => {
    const { page } = await openPage()
    const email = uniqueEmail('reload')
    await page.goto('/account/login')
    await waitForHydration(page)
    await page.getByRole('tab', { name: en.auth.login.tabSignUp, exact: true }).click()
    await page.getByLabel(en.auth.fields.email, { exact: true }).fill(email)
    const since = Date.now()
    await page.getByTestId('send-code').click()
    const minutes = Math.max(1, Math.round(server.config.identity.verification.codeTtlSeconds / 60))
    const sentLine = page.getByRole('status').filter({ hasText: fill(en.auth.code.sent, { address: email, minutes }) })
    await sentLine.waitFor()
    // The open tab is in the address, so the reload comes back to it.
    expect(pathOf(page)).toBe('/account/login?tab=sign-up')

    await page.reload()
    await waitForHydration(page)
    await sentLine.waitFor()
    expect(await page.getByLabel(en.auth.fields.email, { exact: true }).inputValue()).toBe(email)
    const resendIn = new RegExp(`^${fill(en.auth.code.resendIn, { seconds: '(\\d+)' })}$`)
    await expect.poll(async () => resendIn.test((await page.getByTestId('send-code').textContent())?.trim() ?? '')).toBe(true)
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true)

    // Another tab (its own storage) asks for a code to the same address within the minute: the
    // server refuses, and the button counts down the wait it named.
    const other = await openPage()
    other.errors.ignore(failedCall('/v1/auth/verification', 429))
    await other.page.goto('/account/login?tab=sign-up')
    await waitForHydration(other.page)
    await other.page.getByLabel(en.auth.fields.email, { exact: true }).fill(email)
    await other.page.getByTestId('send-code').click()
    const sendIn = new RegExp(`^${fill(en.auth.code.sendIn, { seconds: '(\\d+)' })}$`)
    await expect.poll(async () => sendIn.exec((await other.page.getByTestId('send-code').textContent())?.trim() ?? '')?.[1]).toMatch(/^\d+$/)
    const waited = Number(sendIn.exec((await other.page.getByTestId('send-code').textContent())!.trim())![1])
    expect(waited).toBeGreaterThan(0)
    expect(waited).toBeLessThanOrEqual(60)
    expect(await other.page.getByTestId('send-code').isDisabled()).toBe(true)
    await other.page.getByRole('status').filter({ hasText: en.auth.code.recentlySent }).waitFor()

    // The code from before the reload still creates the account.
    const code = await readLatestCode(server.dataDir, email, { since: since - 1_000 })
    await page.getByLabel(en.auth.fields.code, { exact: true }).fill(code)
    await page.getByLabel(en.auth.fields.newPassword, { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: en.auth.signUp.submit, exact: true }).click()
    await waitForPath(page, '/drive')
    expect(await server.server.identity.users.findByEmail(email)).toBeTruthy()
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('cumulus.sentCode.')))).toEqual([])
  })

  test('a wrong password shows the service\'s message and signs nobody in', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'wrong', name: 'Wrong Password' })
    const { page, errors } = await openPage()
    // The refused sign-in is the point of the test; Chromium logs the 401 as a console error.
    errors.ignore(failedCall(SIGN_IN_PATH))
    await page.goto('/account/login')

    await submitPasswordSignIn(page, user.email, 'not the password 1')

    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toBe(ERROR_MESSAGES['en-US'].invalid_account_or_password)
    expect(pathOf(page)).toBe('/account/login')
    expect(await page.getByTestId('signed-in-panel').count()).toBe(0)
    // The form keeps what was typed, so the user only corrects the password.
    expect(await page.getByLabel(en.auth.fields.username, { exact: true }).inputValue()).toBe(user.email)
  })
})

describe('membership', () => {
  test('a yearly VIP grant shows as a yearly membership with its expiry after a reload', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'vip', name: 'Vip Yearly' })
    const { page } = await openPage({ timezoneId: 'UTC' })
    await signInWithPassword(page, user)
    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('none')
    expect(await page.getByTestId('vip-yearly').count()).toBe(0)

    // What `cumulus user grant-vip <email> --days 365 --year` does.
    const granted = await grantMembership(server, user.email, { days: 365, year: true })
    expect(granted.membership.isYear).toBe(true)
    await page.reload()

    await welcomeHeading(page, user.name).waitFor()
    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('member')
    await expect.poll(() => testIdText(page, 'vip-state')).toBe(fill(en.accountHome.vip.member, { type: 'VIP' }))
    await expect.poll(() => testIdText(page, 'vip-expiry')).toBe(fill(en.accountHome.vip.expires, { date: pageDate(granted.membership.expiresAtMs) }))
    await expect.poll(() => testIdText(page, 'vip-yearly')).toBe(en.accountHome.vip.yearly)
    await expect.poll(() => testIdText(page, 'vip-level')).toBe(fill(en.accountHome.vip.level, { level: 1 }))
  })

  test('a monthly VIP grant is a membership without the yearly badge', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'monthly', name: 'Vip Monthly' })
    const granted = await grantMembership(server, user.id, { days: 30, year: false })
    const { page } = await openPage({ timezoneId: 'UTC' })
    await signInWithPassword(page, user)

    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('member')
    await expect.poll(() => testIdText(page, 'vip-expiry')).toBe(fill(en.accountHome.vip.expires, { date: pageDate(granted.membership.expiresAtMs) }))
    expect(await page.getByTestId('vip-yearly').count()).toBe(0)
  })
})

describe('activation codes', () => {
  test('a code made with the CLI turns a free account into a member, on a phone-sized screen; the same code then is refused', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'redeem', name: 'Code Redeemer' })
    // What `cumulus vip codes create --plan vip --days 31 --count 1` does.
    const [code] = await createActivationCodes(server.server.identity, { plan: 'vip', days: 31, count: 1 })
    const { page, errors } = await openPage({ timezoneId: 'UTC', ...PHONE })
    // The second redemption is refused on purpose; Chromium logs the 409 as a console error.
    errors.ignore(failedCall('/vip/v1/order/activation-code', 409))
    await signInWithPassword(page, user)
    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('none')

    await page.getByLabel(en.accountHome.vip.redeemLabel).fill(code!.toLowerCase())
    await page.getByRole('button', { name: en.accountHome.vip.redeemSubmit }).click()
    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('member')
    await expect.poll(() => testIdText(page, 'vip-state')).toBe(fill(en.accountHome.vip.member, { type: 'VIP' }))
    const done = await testIdText(page, 'redeem-done')
    expect(done).toMatch(/^31 days of membership added\. You are a member until /)
    // The form fits the phone's width.
    const box = await page.getByTestId('redeem-code-form').boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.viewport!.width)

    // After a reload the membership is still there, and the used code is refused with the catalogue's text.
    await page.reload()
    await expect.poll(() => page.getByTestId('vip-status').getAttribute('data-vip')).toBe('member')
    await page.getByLabel(en.accountHome.vip.redeemLabel).fill(code!)
    await page.getByRole('button', { name: en.accountHome.vip.redeemSubmit }).click()
    await expect.poll(() => page.getByTestId('redeem-code-form').getByRole('alert').textContent()).toBe(ERROR_MESSAGES['en-US'].activation_code_used)
  })
})

describe('invite links', () => {
  test('a friend who signs up through an invite link makes both accounts members', async ({ openPage, server }) => {
    const inviter = await seedUser(server, { label: 'inviter', name: 'Ines Inviter' })
    const first = await openPage({ timezoneId: 'UTC' })
    await signInWithPassword(first.page, inviter)
    await expect.poll(() => first.page.getByTestId('vip-status').getAttribute('data-vip')).toBe('none')
    await expect.poll(() => first.page.getByTestId('invite-link').inputValue()).toMatch(/\/account\/login\?tab=sign-up&invite=[0-9A-Z]{8}$/)
    const link = await first.page.getByTestId('invite-link').inputValue()

    // The friend, in a browser of their own, opens the link: the code is already filled in.
    const friend = await openPage({ timezoneId: 'UTC' })
    await friend.page.goto(new URL(link).pathname + new URL(link).search)
    await expect.poll(() => friend.page.getByLabel(en.auth.fields.inviteCode, { exact: true }).inputValue()).toBe(new URL(link).searchParams.get('invite'))
    await submitEmailSignUp(friend.page, server, { email: uniqueEmail('invitee'), password: PASSWORD, name: 'Fred Friend' })
    await waitForPath(friend.page, '/drive')
    await friend.page.goto('/account/home')
    await expect.poll(() => friend.page.getByTestId('vip-status').getAttribute('data-vip')).toBe('member')

    await first.page.reload()
    await expect.poll(() => first.page.getByTestId('vip-status').getAttribute('data-vip')).toBe('member')
  })
})

describe('the auth middleware', () => {
  test('a signed-out visit to /account/home goes to the login page and comes back after signing in', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'redirect', name: 'Come Back' })
    const { page } = await openPage()
    await page.goto('/account/home')

    await waitForPath(page, '/account/login?redirect=%2Faccount%2Fhome')
    await submitPasswordSignIn(page, user.email, user.password)

    await waitForPath(page, '/account/home')
    await welcomeHeading(page, user.name).waitFor()
  })

  test('the redirect keeps any protected page: /account/unregister comes back to /account/unregister', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'redirect2', name: 'Come Back Two' })
    const { page } = await openPage()
    await page.goto('/account/unregister')

    await waitForPath(page, '/account/login?redirect=%2Faccount%2Funregister')
    await submitPasswordSignIn(page, user.email, user.password)

    await waitForPath(page, '/account/unregister')
    await page.getByRole('heading', { level: 1, name: en.auth.unregister.heading, exact: true }).waitFor()
  })

  for (const external of ['https://evil.example/', '//evil.example/account/home']) {
    test(`an external redirect (${external}) is not followed: sign-in lands on /account/home`, async ({ openPage, server }) => {
      const user = await seedUser(server, { label: 'evil', name: 'Not Redirected' })
      const { page } = await openPage()
      const documents: string[] = []
      page.on('request', (request) => {
        if (request.isNavigationRequest()) documents.push(request.url())
      })
      await page.goto(`/account/login?redirect=${encodeURIComponent(external)}`)

      await submitPasswordSignIn(page, user.email, user.password)

      await waitForPath(page, '/account/home')
      await welcomeHeading(page, user.name).waitFor()
      expect(new URL(page.url()).origin).toBe(server.url)
      expect(documents.filter((url) => !url.startsWith(server.url))).toEqual([])
    })
  }
})

describe('deleting the account', () => {
  test('asks for the password and a confirmation, schedules the deletion, and the account then cannot sign in', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'delete', name: 'Leaving Soon' })
    const { page, errors } = await openPage()
    // Signing in to the frozen account is refused on purpose (account_freeze); Chromium logs it.
    errors.ignore(failedCall(SIGN_IN_PATH))
    await signInWithPassword(page, user)

    await page.getByRole('link', { name: en.accountHome.danger.link, exact: true }).click()
    await waitForPath(page, '/account/unregister')
    await page.getByRole('heading', { level: 1, name: en.auth.unregister.heading, exact: true }).waitFor()
    await page.getByLabel(en.auth.unregister.passwordLabel, { exact: true }).fill(user.password)
    const submit = page.getByRole('button', { name: en.auth.unregister.submit, exact: true })
    const confirm = page.getByRole('dialog', { name: en.auth.unregister.confirmTitle })

    // "Keep my account" closes the confirmation and deletes nothing.
    await submit.click()
    await confirm.waitFor()
    await confirm.getByRole('button', { name: en.auth.unregister.cancel, exact: true }).click()
    await confirm.waitFor({ state: 'hidden' })
    expect((await server.server.identity.users.findById(user.id))?.status).toBe('ACTIVE')

    await submit.click()
    await confirm.waitFor()
    await confirm.getByRole('button', { name: en.auth.unregister.confirm, exact: true }).click()

    await page.getByRole('heading', { level: 1, name: en.auth.unregister.doneHeading, exact: true }).waitFor()
    const frozen = await server.server.identity.users.findById(user.id)
    expect(frozen?.status).toBe('FROZEN')
    expect(frozen?.eraseAtMs).toBeGreaterThan(Date.now())

    // Signed out everywhere: the account page sends the visitor to sign in.
    await page.goto('/account/home')
    await waitForPath(page, '/account/login?redirect=%2Faccount%2Fhome')
    await submitPasswordSignIn(page, user.email, user.password)

    await expect.poll(() => page.getByRole('alert').textContent()).toBe(ERROR_MESSAGES['en-US'].account_freeze)
    expect(pathOf(page)).toBe('/account/login?redirect=%2Faccount%2Fhome')
    expect(await page.getByTestId('signed-in-panel').count()).toBe(0)
  })
})

describe('guest accounts', () => {
  test('"Try without an account" signs in a guest whose account page shows the guest notice', async ({ openPage }) => {
    const { page } = await openPage()
    await page.goto('/account/login')
    await waitForHydration(page)

    await page.getByRole('button', { name: en.auth.login.guest, exact: true }).click()

    await waitForPath(page, '/account/home')
    await welcomeHeading(page, en.accountHome.profile.guestName).waitFor()
    const notice = page.getByTestId('anonymous-notice')
    await notice.waitFor()
    expect(await notice.getByText(en.accountHome.anonymous.title, { exact: true }).count()).toBe(1)
    await expect.poll(() => testIdText(page, 'account-name')).toBe(en.accountHome.profile.guestName)
    expect(await page.getByTestId('account-email').getAttribute('data-empty')).toBe('true')
    // A new account would start empty: offered second, as a link to account creation.
    expect(await notice.getByRole('link', { name: en.accountHome.anonymous.separate }).getAttribute('href')).toBe('/account/login?tab=sign-up')
  })

  test('a guest keeps the account (same id, same files) by binding an e-mail from the notice', async ({ openPage, server }) => {
    const { page } = await openPage()
    await page.goto('/account/login')
    await waitForHydration(page)
    await page.getByRole('button', { name: en.auth.login.guest, exact: true }).click()
    await waitForPath(page, '/account/home')
    const guestId = await testIdText(page, 'account-user-id')
    const notice = page.getByTestId('anonymous-notice')
    await notice.getByRole('button', { name: en.accountHome.anonymous.cta, exact: true }).click()

    const email = uniqueEmail('kept-guest')
    await page.getByLabel(en.accountHome.contact.newEmail, { exact: true }).fill(email)
    const since = Date.now()
    await page.getByRole('button', { name: en.accountHome.contact.sendCode, exact: true }).click()
    const code = await readLatestCode(server.dataDir, email, { since: since - 1_000 })
    await page.getByLabel(en.accountHome.contact.code, { exact: true }).fill(code)
    await page.getByRole('button', { name: en.accountHome.contact.verifyAndSave, exact: true }).click()

    await expect.poll(() => testIdText(page, 'account-email')).toBe(email)
    expect(await notice.count()).toBe(0)
    expect(await testIdText(page, 'account-user-id')).toBe(guestId)
  })
})

describe('several accounts on one browser', () => {
  test('both accounts are listed, the second is current, and "Switch to" goes back to the first', async ({ openPage, server }) => {
    const first = await seedUser(server, { label: 'first', name: 'First Person' })
    const second = await seedUser(server, { label: 'second', name: 'Second Person' })
    const { page } = await openPage()
    await signInWithPassword(page, first)

    await page.getByRole('link', { name: en.accountHome.accounts.add, exact: true }).click()
    await waitForPath(page, '/account/login?add=1&redirect=%2Faccount%2Fhome')
    // ?add=1 opens the forms directly, even though someone is signed in.
    expect(await page.getByTestId('signed-in-panel').count()).toBe(0)
    await page.getByRole('heading', { level: 1, name: en.auth.login.anotherHeading, exact: true }).waitFor()
    await submitPasswordSignIn(page, second.email, second.password)

    await waitForPath(page, '/account/home')
    await welcomeHeading(page, second.name).waitFor()
    const list = page.getByRole('list', { name: en.accountHome.accounts.listLabel })
    const entries = list.getByTestId('account-entry')
    await expect.poll(() => entries.count()).toBe(2)
    const current = () => list.locator('[data-testid="account-entry"][data-current="true"]').getAttribute('data-sub')
    await expect.poll(current).toBe(second.id)
    await expect.poll(async () => (await entries.evaluateAll((items) => items.map((item) => item.getAttribute('data-sub')))).sort()).toEqual([first.id, second.id].sort())

    await list.getByRole('button', { name: fill(en.accountHome.accounts.switchTo, { name: first.name }), exact: true }).click()

    await welcomeHeading(page, first.name).waitFor()
    await expect.poll(current).toBe(first.id)
    await expect.poll(() => testIdText(page, 'account-email')).toBe(first.email)
    await page.getByRole('status').filter({ hasText: fill(en.accountHome.accounts.switched, { name: first.name }) }).waitFor()
    // And back again: the first account's list offers the second.
    await list.getByRole('button', { name: fill(en.accountHome.accounts.switchTo, { name: second.name }), exact: true }).click()
    await welcomeHeading(page, second.name).waitFor()
    await expect.poll(current).toBe(second.id)
  })
})
