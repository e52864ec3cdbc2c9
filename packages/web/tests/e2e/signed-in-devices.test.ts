// The account page's "Where you're signed in" against the real server: Ann signs in on an
// Android phone and on a desktop. The desktop lists both, itself first and marked, the phone by
// the browser and system its User-Agent names; signing the phone out (behind a confirmation)
// ends its session at once, so the phone's next page asks it to sign in again. On the phone in
// Simplified Chinese, in the dark theme: the section reads Chinese, fits the screen and passes
// axe-core.
import { describe, expect } from 'vitest'
import en from '../../app/locales/en-US/index'
import zhCN from '../../app/locales/zh-CN/index'
import { failedCall, fill, prefixOf, seedUser, signInWithPassword, waitForPath } from './account-utils'
import { e2eTest, expectNoA11yViolations, PHONE, waitForHydration } from './playwright-utils'

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const PHONE_TITLE = fill(en.accountHome.devices.browserOnOs, { browser: 'Chrome', os: 'Android 14' })

const test = e2eTest()

describe('where you are signed in', () => {
  test('lists the phone and this desktop; signing the phone out ends its session at once', async ({ openPage, server }) => {
    const ann = await seedUser(server, { label: 'devices', name: 'Ann Lee' })
    const { page: phone, errors: phoneErrors } = await openPage({ ...PHONE, userAgent: ANDROID, locale: 'zh-CN', colorScheme: 'dark' })
    await signInWithPassword(phone, ann, { locale: 'zh-CN', t: zhCN })
    const desktop = (await openPage()).page
    await signInWithPassword(desktop, ann)

    // On the phone, in Chinese: this phone first, the desktop after it; nothing past the edge.
    await phone.reload()
    const phoneSection = phone.getByRole('region', { name: zhCN.accountHome.devices.title })
    await expect.poll(() => phoneSection.getByTestId('user-session').count()).toBe(2)
    expect(await phoneSection.getByTestId('session-title').first().textContent()).toBe(fill(zhCN.accountHome.devices.browserOnOs, { browser: 'Chrome', os: 'Android 14' }))
    expect(await phoneSection.getByTestId('session-current').textContent()).toBe(zhCN.accountHome.devices.thisDevice)
    expect(await phoneSection.getByTestId('session-app').first().textContent()).toBe(zhCN.accountHome.devices.webApp)
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
    await expectNoA11yViolations(phone)

    // On the desktop: itself first and marked, then the phone, with the way to sign it out.
    const section = desktop.getByRole('region', { name: en.accountHome.devices.title })
    const rows = section.getByTestId('user-session')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.first().getAttribute('data-current')).toBe('true')
    expect(await rows.first().getByRole('button').count()).toBe(0)
    const phoneRow = rows.nth(1)
    expect(await phoneRow.getByTestId('session-title').textContent()).toBe(PHONE_TITLE)
    expect(await phoneRow.getByTestId('session-device-icon').getAttribute('data-kind')).toBe('phone')
    expect(await phoneRow.getByTestId('session-ip').textContent()).toBe(fill(en.accountHome.devices.fromIp, { ip: '127.0.0.1' }))
    await expectNoA11yViolations(desktop)

    await waitForHydration(desktop)
    await phoneRow.getByRole('button', { name: fill(en.accountHome.devices.signOutLabel, { device: PHONE_TITLE }), exact: true }).click()
    const dialog = desktop.getByRole('dialog', { name: fill(en.accountHome.devices.confirmTitle, { device: PHONE_TITLE }) })
    await dialog.getByRole('button', { name: en.accountHome.devices.signOut, exact: true }).click()
    await expect.poll(() => section.getByRole('status').textContent()).toBe(fill(en.accountHome.devices.signedOut, { device: PHONE_TITLE }))
    await expect.poll(() => rows.count()).toBe(1)

    // The phone's session is over. Without reloading, its next step (to the drive, in the app)
    // finds the access token refused and then the refresh token, and the page sends it to sign
    // in, to come back to the drive (Chromium logs the refused calls).
    phoneErrors.ignore(failedCall('/drive/v1/files', 401))
    phoneErrors.ignore(failedCall('/drive/v1/about', 401))
    phoneErrors.ignore(failedCall('/v1/user/me'))
    phoneErrors.ignore(failedCall('/v1/auth/token'))
    await waitForHydration(phone)
    await phone.getByTestId('header-drive-phone').click()
    await waitForPath(phone, `${prefixOf('zh-CN')}/account/login`)
    expect(new URL(phone.url()).searchParams.get('redirect')).toBe(`${prefixOf('zh-CN')}/drive`)
    await phone.getByRole('button', { name: zhCN.auth.login.submit, exact: true }).waitFor()
    // The desktop stays signed in, and a reload lists it alone.
    await desktop.reload()
    await expect.poll(() => section.getByTestId('user-session').count()).toBe(1)

    // A link to the section opens the page at it (below the sticky header), though the section
    // appears only once the session has loaded.
    await desktop.goto('/account/home#signed-in-devices')
    await section.getByTestId('user-session').waitFor()
    await expect.poll(async () => Math.round((await section.boundingBox())?.y ?? -1)).toBeGreaterThanOrEqual(64)
    expect((await section.boundingBox())!.y).toBeLessThan(200)
  })
})
