// The account flows in other languages: a whole sign-up, sign-out, wrong password and sign-in in
// Simplified Chinese (every visible text of the forms and the account page Chinese, the API error
// in Chinese), and the wrong-password message in Korean.
//
// Default CAPTCHA_MODE (auto): this file fails two sign-ins on purpose, one under the third that
// would make the service ask 127.0.0.1 for a challenge.
import { ERROR_MESSAGES } from '@cumulus/protocol'
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import ko from '../../app/locales/ko/index'
import zhCN from '../../app/locales/zh-CN/index'
import { failedCall, PASSWORD, pathOf, seedUser, submitEmailSignUp, submitPasswordSignIn, testIdText, uniqueEmail, waitForPath, welcomeHeading } from './account-utils'
import { htmlLangDir, test } from './playwright-utils'

const SIGN_IN_PATH = '/v1/auth/signin'

/** Runs of three or more Latin letters in the page's main content, minus the words that are the same in every language. */
async function latinWords(page: Page, allowed: readonly string[]): Promise<string[]> {
  const text = await page.locator('main').innerText()
  return [...text.matchAll(/[A-Za-z]{3,}/g)].map((m) => m[0]).filter((word) => !allowed.includes(word))
}

describe('Simplified Chinese', () => {
  test('sign-up, sign-out, a wrong password and sign-in at /zh-CN, all in Chinese', async ({ openPage, server }) => {
    const t = zhCN
    const { page, errors } = await openPage({ locale: 'zh-CN' })
    // One refused sign-in is part of the flow; Chromium logs its 400.
    errors.ignore(failedCall(SIGN_IN_PATH))
    const email = uniqueEmail('zh')
    const name = '李雷'
    await page.goto('/zh-CN/account/login')

    expect(await htmlLangDir(page)).toEqual({ lang: 'zh-CN', dir: 'ltr' })
    await page.getByRole('heading', { level: 1, name: t.auth.login.heading, exact: true }).waitFor()
    const tabs = page.getByRole('tablist', { name: t.auth.login.tabsLabel })
    expect(await tabs.getByRole('tab').allTextContents()).toEqual([t.auth.login.tabSignIn, t.auth.login.tabSignUp])
    expect(await page.getByRole('tablist', { name: t.auth.login.methodLabel }).getByRole('tab').allTextContents()).toEqual([t.auth.login.methodPassword, t.auth.login.methodCode])
    await page.getByLabel(t.auth.fields.username, { exact: true }).waitFor()
    await page.getByLabel(t.auth.fields.password, { exact: true }).waitFor()
    await page.getByRole('link', { name: t.auth.login.forgot, exact: true }).waitFor()
    await page.getByRole('button', { name: t.auth.login.submit, exact: true }).waitFor()
    await page.getByRole('button', { name: t.auth.login.guest, exact: true }).waitFor()
    // No English left in the forms.
    expect(await latinWords(page, [])).toEqual([])

    await submitEmailSignUp(page, server, { email, password: PASSWORD, name }, t)
    // A new account lands on its drive, and reaches its profile from the header.
    await waitForPath(page, '/zh-CN/drive')
    await page.getByTestId('drive-empty').waitFor()
    await page.getByTestId('header-account').click()
    await waitForPath(page, '/zh-CN/account/home')
    await welcomeHeading(page, name, t).waitFor()
    await expect.poll(() => testIdText(page, 'account-name')).toBe(name)
    await expect.poll(() => testIdText(page, 'account-email')).toBe(email)
    await expect.poll(() => testIdText(page, 'vip-state')).toBe(t.accountHome.vip.notMember)
    await page.getByRole('list', { name: t.accountHome.accounts.listLabel }).waitFor()
    // The account page is Chinese too: only the e-mail address, the user id, the names
    // "Cumulus" and "VIP" and the storage units (IEC symbols, written alike in every language) are Latin.
    const userId = (await testIdText(page, 'account-user-id')) ?? ''
    const addressWords = [...`${email} ${userId}`.matchAll(/[A-Za-z]{3,}/g)].map((m) => m[0])
    // The signed-in devices name browsers and systems by their own names ("Linux 上的 Chrome").
    await page.getByTestId('user-session').first().waitFor()
    const deviceWords = (await page.getByTestId('session-title').allTextContents()).flatMap((title) => [...title.matchAll(/[A-Za-z]{3,}/g)].map((m) => m[0]))
    expect(await latinWords(page, ['Cumulus', 'VIP', 'KiB', 'MiB', 'GiB', 'TiB', ...addressWords, ...deviceWords])).toEqual([])

    await page.getByRole('button', { name: t.accountHome.accounts.signOut, exact: true }).click()
    await waitForPath(page, '/zh-CN/account/login')

    await submitPasswordSignIn(page, email, 'not the password 1', t)
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(ERROR_MESSAGES['zh-CN'].invalid_account_or_password)
    expect(pathOf(page)).toBe('/zh-CN/account/login')

    await page.getByLabel(t.auth.fields.password, { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: t.auth.login.submit, exact: true }).click()
    await waitForPath(page, '/zh-CN/account/home')
    await welcomeHeading(page, name, t).waitFor()
    expect(await htmlLangDir(page)).toEqual({ lang: 'zh-CN', dir: 'ltr' })
  })
})

describe('Korean', () => {
  test('a wrong password at /ko/account/login shows the Korean catalogue text', async ({ openPage, server }) => {
    const t = ko
    const user = await seedUser(server, { label: 'ko', name: '김민수' })
    const { page, errors } = await openPage({ locale: 'ko-KR' })
    // The refused sign-in is the point of the test; Chromium logs its 400.
    errors.ignore(failedCall(SIGN_IN_PATH))
    await page.goto('/ko/account/login')

    await submitPasswordSignIn(page, user.email, 'not the password 1', t)

    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toBe(ERROR_MESSAGES.ko.invalid_account_or_password)
    expect(ERROR_MESSAGES.ko.invalid_account_or_password).not.toBe(ERROR_MESSAGES['en-US'].invalid_account_or_password)
    expect(pathOf(page)).toBe('/ko/account/login')
    // The page around it is Korean as well.
    await page.getByRole('heading', { level: 1, name: t.auth.login.heading, exact: true }).waitFor()
    expect(await page.getByRole('button', { name: en.auth.login.submit, exact: true }).count()).toBe(0)
  })
})
