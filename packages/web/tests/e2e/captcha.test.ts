// The captcha overlay against a server with CAPTCHA_MODE=always: every guarded call (sign-in,
// sending a code, sign-up) opens the "Security check" dialog with the service's proof-of-work
// page in a frame (320×430 on a desktop, the whole screen on a small one). The page does not
// start on its own: the visitor presses "Verify I'm human", the browser finds the proof of work,
// the service returns a captcha token, the page posts it to the app, and the call goes through.
// Closing the dialog cancels the call with the app's own message.
import type { Locale } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import { CHALLENGE_TEXTS } from '../../../identity/src/features/captcha/challenge-texts'
import { PASSWORD, fill, pathOf, seedUser, submitPasswordSignIn, type Texts, testIdText, uniqueEmail, waitForPath, welcomeHeading } from './account-utils'
import { e2eTest, readLatestCode, waitForHydration } from './playwright-utils'

const test = e2eTest({ captchaMode: 'always' })

/** The frame's size on screens that fit it (CAPTCHA_FRAME in @cumulus/protocol, spec 2 and 4). */
const FRAME = { width: 320, height: 430 }
/** Proof of work at the default difficulty (18 bits) takes a few seconds in headless Chromium. */
const SOLVE_TIMEOUT_MS = 45_000

function overlay(page: Page, t: Texts = en) {
  return page.getByRole('dialog', { name: t.auth.captcha.title, exact: true })
}

function challengeFrame(page: Page, t: Texts = en) {
  return page.frameLocator(`iframe[title="${t.auth.captcha.frameTitle}"]`)
}

/** Waits for the overlay, presses the challenge page's button and waits until the overlay has closed with a token. */
async function passCheck(page: Page, { t = en, locale = 'en-US' }: { t?: Texts; locale?: Locale } = {}): Promise<void> {
  const dialog = overlay(page, t)
  await dialog.waitFor()
  const frame = challengeFrame(page, t)
  await frame.getByRole('heading', { level: 1, name: CHALLENGE_TEXTS[locale].heading, exact: true }).waitFor()
  await frame.getByRole('button', { name: CHALLENGE_TEXTS[locale].button, exact: true }).click()
  await dialog.waitFor({ state: 'hidden', timeout: SOLVE_TIMEOUT_MS })
}

/** The overlay's box, rounded to whole pixels. */
async function box(page: Page, testId: string) {
  const b = await page.getByTestId(testId).boundingBox()
  expect(b, `${testId} has a box`).not.toBeNull()
  return { x: Math.round(b!.x), y: Math.round(b!.y), width: Math.round(b!.width), height: Math.round(b!.height) }
}

describe('signing in', () => {
  test('opens the security check in a 320×430 frame; passing it signs in', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'captcha', name: 'Human Being' })
    const { page } = await openPage()
    await page.goto('/account/login')

    await submitPasswordSignIn(page, user.email, user.password)

    const dialog = overlay(page)
    await dialog.waitFor()
    expect(await dialog.getAttribute('data-testid')).toBe('captcha-overlay')
    const frame = page.getByTitle(en.auth.captcha.frameTitle, { exact: true })
    await frame.waitFor()
    expect(await frame.evaluate((el) => el.tagName)).toBe('IFRAME')
    // Centred in the 1280×800 window, at the frame's size; the frame fills it.
    expect(await box(page, 'captcha-overlay')).toEqual({ x: (1280 - FRAME.width) / 2, y: Math.round((800 - FRAME.height) / 2), ...FRAME })
    const frameBox = await frame.boundingBox()
    expect({ width: Math.round(frameBox!.width), height: Math.round(frameBox!.height) }).toEqual(FRAME)
    // Nothing happened yet: the sign-in waits for the check.
    expect(pathOf(page)).toBe('/account/login')

    await passCheck(page)

    await waitForPath(page, '/account/home')
    await welcomeHeading(page, user.name).waitFor()
    await expect.poll(() => testIdText(page, 'account-email')).toBe(user.email)
  })

  test('on a 300×400 screen the frame fills the screen; closing it cancels the sign-in with a message', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'closer', name: 'Changed Mind' })
    const { page } = await openPage({ viewport: { width: 300, height: 400 } })
    await page.goto('/account/login')

    await submitPasswordSignIn(page, user.email, user.password)

    await overlay(page).waitFor()
    expect(await box(page, 'captcha-overlay')).toEqual({ x: 0, y: 0, width: 300, height: 400 })
    // Wait for the challenge page, so closing really abandons a loaded check.
    await challengeFrame(page).getByRole('button', { name: CHALLENGE_TEXTS['en-US'].button, exact: true }).waitFor()
    const close = page.getByRole('button', { name: en.auth.captcha.close, exact: true })
    // On a small screen the close button sits inside the screen, not above the frame.
    const closeBox = await close.boundingBox()
    expect(closeBox!.y).toBeGreaterThanOrEqual(0)
    expect(closeBox!.x + closeBox!.width).toBeLessThanOrEqual(300)

    await close.click()

    await overlay(page).waitFor({ state: 'hidden' })
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(en.common.errors.captchaClosed)
    expect(pathOf(page)).toBe('/account/login')
    expect(await page.getByTestId('signed-in-panel').count()).toBe(0)
    // Nobody is signed in: the account page sends the visitor back to the login page.
    await page.goto('/account/home')
    await waitForPath(page, '/account/login?redirect=%2Faccount%2Fhome')
  })

  test('in Korean, the dialog, the challenge page and the closing message are Korean', async ({ openPage, server }) => {
    const user = await seedUser(server, { label: 'ko-captcha', name: '보안 확인' })
    const { page } = await openPage({ locale: 'ko-KR' })
    await page.goto('/ko/account/login')

    await submitPasswordSignIn(page, user.email, user.password, ko)

    await overlay(page, ko).waitFor()
    const frame = challengeFrame(page, ko)
    await frame.getByRole('heading', { level: 1, name: CHALLENGE_TEXTS.ko.heading, exact: true }).waitFor()
    await frame.getByRole('button', { name: CHALLENGE_TEXTS.ko.button, exact: true }).waitFor()
    await page.getByRole('button', { name: ko.auth.captcha.close, exact: true }).click()

    await overlay(page, ko).waitFor({ state: 'hidden' })
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(ko.common.errors.captchaClosed)
    expect(pathOf(page)).toBe('/ko/account/login')
  })
})

describe('signing up', () => {
  test('sending the code and creating the account each pass a security check', async ({ openPage, server }) => {
    const { page } = await openPage()
    const email = uniqueEmail('captcha-signup')
    const name = 'Checked Twice'
    await page.goto('/account/login')
    await waitForHydration(page)
    await page.getByRole('tablist', { name: en.auth.login.tabsLabel }).getByRole('tab', { name: en.auth.login.tabSignUp, exact: true }).click()
    await page.getByLabel(en.auth.fields.email, { exact: true }).fill(email)

    const since = Date.now()
    await page.getByTestId('send-code').click()
    await passCheck(page)
    const minutes = Math.max(1, Math.round(server.config.identity.verification.codeTtlSeconds / 60))
    await page.getByRole('status').filter({ hasText: fill(en.auth.code.sent, { address: email, minutes }) }).waitFor()
    const code = await readLatestCode(server.dataDir, email, { since: since - 1_000 })

    await page.getByLabel(en.auth.fields.code, { exact: true }).fill(code)
    await page.getByLabel(en.auth.fields.newPassword, { exact: true }).fill(PASSWORD)
    await page.getByLabel(en.auth.fields.name, { exact: true }).fill(name)
    await page.getByRole('button', { name: en.auth.signUp.submit, exact: true }).click()
    await passCheck(page)

    // A new account lands on its drive, and reaches its profile from the header.
    await waitForPath(page, '/drive')
    await page.getByTestId('header-account').click()
    await waitForPath(page, '/account/home')
    await welcomeHeading(page, name).waitFor()
    await expect.poll(() => testIdText(page, 'account-email')).toBe(email)
  })
})
