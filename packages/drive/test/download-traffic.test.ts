import { randomBytes } from 'node:crypto'
import { DriveErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { pathOf, uploadFile } from './upload-kit.js'

// The plans' daily download traffic, counted as downloads through signed links start, attacked
// the way a script would: many downloads at once against a small limit.

describe('daily download traffic', () => {
  let t: DriveTestApp
  beforeAll(async () => {
    t = await startDriveTestApp({ PLANS: JSON.stringify({ free: { download_bytes_per_day: 10_000 } }) })
  })
  afterAll(async () => {
    await t?.close()
  })

  const quantity = async (token: string) => (await t.call('GET', '/vip/v1/quantity/list', { token, query: { type: 'transfer' } })).body.base.download_daily

  it("holds the owner's plan to its bytes a day under parallel downloads; a range counts its own length", async () => {
    const token = await t.signUp()
    const file = await uploadFile(t, token, 'report.bin', randomBytes(3000))
    expect(await quantity(token)).toEqual({ total_assets: 10_000, assets: 10_000 })
    // Ten whole downloads at once: 3 x 3,000 bytes fit in 10,000, a fourth does not.
    const replies = await Promise.all(Array.from({ length: 10 }, () => t.call('GET', pathOf(file.web_content_link))))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(3)
    for (const refused of replies.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe(DriveErrors.download_limit_reached.reason)
    }
    expect(await quantity(token)).toEqual({ total_assets: 10_000, assets: 1000 })
    // What is left still serves a range that fits, and nothing more.
    expect((await t.call('GET', pathOf(file.web_content_link), { headers: { range: 'bytes=0-999' } })).status).toBe(206)
    expect((await t.call('GET', pathOf(file.web_content_link), { headers: { range: 'bytes=0-0' } })).body.error).toBe(DriveErrors.download_limit_reached.reason)
    // HEAD and revalidation carry no body, so they cost nothing.
    expect((await t.call('HEAD', pathOf(file.web_content_link))).status).toBe(200)
    expect((await t.call('GET', pathOf(file.web_content_link), { headers: { 'if-none-match': `"${file.hash}"` } })).status).toBe(304)
  })

  it("meters each owner on their own plan: a member's downloads are not limited, and are counted", async () => {
    const member = await t.signUp()
    await t.makeVip(member)
    const file = await uploadFile(t, member, 'big.bin', randomBytes(6000))
    for (let i = 0; i < 3; i++) expect((await t.call('GET', pathOf(file.web_content_link))).status).toBe(200)
    expect(await quantity(member)).toEqual({ total_assets: -1, assets: -1 })
    const day = Math.floor(Date.now() / 86_400_000)
    const row = await t.server.drive.db.selectFrom('drive_traffic_days').select('bytes').where('day', '=', day).where('user_id', '=', (await t.call('GET', '/v1/user/me', { token: member })).body.sub).executeTakeFirst()
    expect(Number(row?.bytes)).toBe(18_000)
  })
})
