import { AccountErrors, AppError, CAPTCHA_REJECT, GenericErrors, OAuthErrors, WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { type TestAppOptions, type TestDeps, buildTestDeps } from '../../../test/test-app.js'
import { lockoutKeys } from '../sign-in/lockout.js'
import { verifyCaptchaToken } from './captcha-token.js'
import { findLiveChallenge } from './challenge.js'
import { initCaptcha } from './init-captcha.js'

const SIGN_IN = 'POST:/v1/auth/signin'

describe('initCaptcha', () => {
  let t: TestDeps | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  async function setup(config: TestAppOptions['config'] = {}) {
    t = await buildTestDeps({ config })
    return t
  }

  const input = { clientId: WEB_CLIENT_ID, action: 'POST:https://drive.example/v1/auth/signin', deviceId: 'device-1', ip: '203.0.113.7', meta: { username: 'ann' } }

  it('answers a low-risk call with a token for the normalised action', async () => {
    const { deps } = await setup()
    const reply = await initCaptcha(deps, input)
    expect(reply).toEqual({ captcha_token: expect.any(String), expires_in: 300 })
    await expect(verifyCaptchaToken(deps, { token: reply.captcha_token!, clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, targets: ['ann'], singleUse: true })).resolves.toBeTruthy()
  })

  it('answers with the challenge page URL once the account has failed too often', async () => {
    const { deps } = await setup({ captcha: { challengeAfterFailures: 2 } })
    await deps.counters.increment(lockoutKeys.account('ann'), 900)
    await deps.counters.increment(lockoutKeys.account('ann'), 900)
    const reply = await initCaptcha(deps, input)
    expect(reply).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/captcha\/challenge\?challenge=/), expires_in: 300 })
    const challenge = new URL(reply.url!).searchParams.get('challenge')!
    expect(findLiveChallenge(deps, challenge)).toMatchObject({ clientId: WEB_CLIENT_ID, deviceId: 'device-1', action: SIGN_IN, bits: deps.config.captcha.powDifficultyBits })
  })

  it('keeps a path prefix of publicUrl in the challenge URL', async () => {
    const { deps } = await setup({ publicUrl: 'https://cloud.example/identity/', captcha: { mode: 'always' } })
    const reply = await initCaptcha(deps, input)
    expect(reply.url).toMatch(/^https:\/\/cloud\.example\/identity\/captcha\/challenge\?challenge=/)
  })

  it('refuses with CAPTCHA_REJECT and a retry delay past the per-IP limit', async () => {
    const { deps } = await setup({ captcha: { initPerIpPerMinute: 2 } })
    await initCaptcha(deps, input)
    await initCaptcha(deps, input)
    const error = await initCaptcha(deps, input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ entry: AccountErrors.captcha_invalid, detailReason: CAPTCHA_REJECT })
    expect((error as AppError).retryAfterSeconds).toBeGreaterThan(0)
    expect((error as AppError).retryAfterSeconds).toBeLessThanOrEqual(60)
  })

  it('requires a registered client', async () => {
    const { deps } = await setup()
    await expect(initCaptcha(deps, { ...input, clientId: 'nobody' })).rejects.toMatchObject({ entry: OAuthErrors.unauthorized_client })
    await expect(initCaptcha(deps, { ...input, clientId: undefined })).rejects.toMatchObject({ entry: GenericErrors.invalid_argument })
  })
})
