// The harness itself: the server it starts sends real verification codes to the outboxes the
// readers poll, and the code read is the one the server accepts. The account-flow tests rely on it.
import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { describe, expect } from 'vitest'
import { e2eTest, readLatestCode, readLatestMail, readLatestSmsCode } from './playwright-utils'

// With the default CAPTCHA_MODE (auto) sending a code needs a captcha token; these calls come
// from no browser, so this file's server runs with the captcha off (also exercises e2eTest()).
const test = e2eTest({ captchaMode: 'off' })

async function post(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('the outbox readers', () => {
  test('read the e-mailed code the server accepts, and wait for a newer one when asked', async ({ server }) => {
    const email = `reader-${Date.now()}@example.com`
    const send = () => post(`${server.url}/v1/auth/verification`, { email, target: 'ANY', usage: 'REGISTER', client_id: WEB_CLIENT_ID })
    const sent = await send()
    expect(sent.status).toBe(200)

    const code = await readLatestCode(server.dataDir, email)
    expect(code).toMatch(/^\d{6}$/)
    expect((await readLatestMail(server.dataDir, email.toUpperCase())).to).toContain(email)
    const verified = await post(`${server.url}/v1/auth/verification/verify`, { verification_id: sent.body.verification_id, verification_code: code, client_id: WEB_CLIENT_ID })
    expect(verified.status).toBe(200)
    expect(verified.body.verification_token).toEqual(expect.any(String))

    // Nothing newer than now: the reader gives up after its timeout instead of returning the old code.
    await expect(readLatestCode(server.dataDir, email, { since: Date.now() + 1_000, timeoutMs: 300 })).rejects.toThrow(/did not arrive within 300 ms/)
  })

  test('read an SMS code by phone number', async ({ server }) => {
    const phone = '+821012345678'
    const sent = await post(`${server.url}/v1/auth/verification`, { phone_number: phone, target: 'ANY', usage: 'REGISTER', client_id: WEB_CLIENT_ID })
    expect(sent.status).toBe(200)

    expect(await readLatestSmsCode(server.dataDir, phone)).toMatch(/^\d{6}$/)
  })
})
