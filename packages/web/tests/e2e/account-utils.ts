/**
 * Helpers for the account-flow tests (account.test.ts, account-locale.test.ts, captcha.test.ts):
 * seeding users through identity's own operator functions (what `cumulus user create` and
 * `cumulus user grant-vip` call), and driving the login page by role and label in any locale.
 */
import { randomBytes } from 'node:crypto'
import { createUserByOperator, grantVip, type UserRecord } from '@cumulus/identity'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import type { Messages } from '../../app/locales/shape'
import { readLatestCode, type TestServer, waitForHydration } from './playwright-utils'

/** The web app's tables for one locale (`en`, or another locale's `index`). */
export type Texts = Messages

/** Fills i18next's `{{name}}` placeholders, as the page does. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole))
}

/** A fresh, lower-case e-mail address: every test gets its own account (codes are rate-limited per address). */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`
}

/** A password that passes the sign-up rules (at least 8 characters). */
export const PASSWORD = 'correct horse battery 9'

export interface SeededUser {
  id: string
  email: string
  password: string
  name: string
  record: UserRecord
}

/**
 * Creates an active user with an e-mail and a password directly in the server's database, with
 * identity's `createUserByOperator` (the function behind `cumulus user create`): quicker than a
 * browser sign-up, and it needs no captcha token.
 */
export async function seedUser(server: TestServer, { label = 'user', name, password = PASSWORD }: { label?: string; name: string; password?: string }): Promise<SeededUser> {
  const email = uniqueEmail(label)
  const record = await createUserByOperator(server.server.identity, { email, password, name })
  return { id: record.id, email: record.email ?? email, password, name, record }
}

/** Grants VIP with identity's `grantVip` (the function behind `cumulus user grant-vip`). */
export async function grantMembership(server: TestServer, user: string, options: { days: number; year: boolean }) {
  return grantVip(server.server.identity, { user, ...options })
}

/** `path?query` of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/** Waits until the page's path (and query, if `expected` has one) is `expected`. */
export async function waitForPath(page: Page, expected: string): Promise<void> {
  const [pathname, search = ''] = expected.split('?')
  try {
    await page.waitForURL((url) => url.pathname === pathname && (expected.includes('?') ? url.search === `?${search}` : true))
  } catch (err) {
    throw new Error(`expected to reach ${expected}, but the page is at ${pathOf(page)}`, { cause: err })
  }
}

/** A locale's path prefix ('' for en-US, `/ko` for Korean). */
export function prefixOf(locale: string): string {
  return locale === 'en-US' ? '' : `/${locale}`
}

/**
 * Opens the login forms' "Sign in" → "With password" tab and submits `username` / `password`.
 * Expects to be on the login page already (hydrated or not): it waits for hydration itself.
 */
export async function submitPasswordSignIn(page: Page, username: string, password: string, t: Texts = en): Promise<void> {
  await waitForHydration(page)
  await page.getByRole('tablist', { name: t.auth.login.tabsLabel }).getByRole('tab', { name: t.auth.login.tabSignIn, exact: true }).click()
  await page.getByRole('tablist', { name: t.auth.login.methodLabel }).getByRole('tab', { name: t.auth.login.methodPassword, exact: true }).click()
  await page.getByLabel(t.auth.fields.username, { exact: true }).fill(username)
  // Exact: the show-password toggle's name contains "password" too.
  await page.getByLabel(t.auth.fields.password, { exact: true }).fill(password)
  await page.getByRole('button', { name: t.auth.login.submit, exact: true }).click()
}

/** The account page's main heading for `name`. */
export function welcomeHeading(page: Page, name: string, t: Texts = en) {
  return page.getByRole('heading', { level: 1, name: fill(t.accountHome.welcome, { name }), exact: true })
}

/** Signs in with a password from the login page and waits for the account page of `name`. */
export async function signInWithPassword(page: Page, user: { email: string; password: string; name: string }, { locale = 'en-US', t = en }: { locale?: string; t?: Texts } = {}): Promise<void> {
  if (!new URL(page.url()).pathname.endsWith('/account/login')) await page.goto(`${prefixOf(locale)}/account/login`)
  await submitPasswordSignIn(page, user.email, user.password, t)
  await waitForPath(page, `${prefixOf(locale)}/account/home`)
  await welcomeHeading(page, user.name, t).waitFor()
}

/**
 * The whole browser sign-up by e-mail: "Create account" tab, "E-mail", send the code, read it
 * from the server's outbox, enter code, password and name, submit. Returns when the form was
 * submitted (the caller checks where it lands).
 */
export async function submitEmailSignUp(page: Page, server: TestServer, input: { email: string; password: string; name: string }, t: Texts = en): Promise<void> {
  await waitForHydration(page)
  await page.getByRole('tablist', { name: t.auth.login.tabsLabel }).getByRole('tab', { name: t.auth.login.tabSignUp, exact: true }).click()
  const contact = page.getByRole('group', { name: t.auth.contact.signUpWith })
  await contact.getByRole('radio', { name: t.auth.contact.email, exact: true }).check()
  await page.getByLabel(t.auth.fields.email, { exact: true }).fill(input.email)
  const since = Date.now()
  await page.getByTestId('send-code').click()
  // The page confirms where the code went (role status) once the server accepted the send.
  const minutes = Math.max(1, Math.round(server.config.identity.verification.codeTtlSeconds / 60))
  await page.getByRole('status').filter({ hasText: fill(t.auth.code.sent, { address: input.email, minutes }) }).waitFor()
  const code = await readLatestCode(server.dataDir, input.email, { since: since - 1_000 })
  expect(code).toMatch(/^\d{6}$/)
  await page.getByLabel(t.auth.fields.code, { exact: true }).fill(code)
  await page.getByLabel(t.auth.fields.newPassword, { exact: true }).fill(input.password)
  await page.getByLabel(t.auth.fields.name, { exact: true }).fill(input.name)
  await page.getByRole('button', { name: t.auth.signUp.submit, exact: true }).click()
}

/** The text of a test id, trimmed (for `expect.poll`). */
export async function testIdText(page: Page, testId: string): Promise<string | null> {
  const text = await page.getByTestId(testId).textContent()
  return text === null ? null : text.trim()
}

/**
 * The console line Chromium prints for a failed identity call (`Failed to load resource: the
 * server responded with a status of 4xx`). Tests that provoke a refusal on purpose ignore exactly it.
 */
export function failedCall(path: string, status?: number): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  return new RegExp(`^console\\.error: Failed to load resource: the server responded with a status of ${status ?? '4\\d\\d'} .*${escaped}(\\?[^)]*)?:\\d+\\)$`)
}
