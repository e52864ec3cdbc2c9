import { WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { loadConfig } from './config.js'
import { type CumulusServer, buildServer } from './server.js'

// The share page's link previews (issue 17): chat apps read the server-rendered title and Open
// Graph tags, which come from the drive in-process (needs the web build: `npm test` makes it first).
describe('the share page as link previews see it', () => {
  let environment: TestEnvironment
  let server: CumulusServer
  let token: string
  let folderId: string
  beforeAll(async () => {
    environment = await testEnvironment({ CAPTCHA_MODE: 'off' })
    server = await buildServer(loadConfig(environment.env), { housekeeping: false })
    const signup = await server.app.inject({ method: 'POST', url: '/v1/auth/signup/anonymously', payload: { client_id: WEB_CLIENT_ID }, remoteAddress: '127.0.9.1' })
    token = signup.json().access_token
    await server.identity.users.update(signup.json().sub, { name: 'Ada' }, Date.now())
    const folder = await server.app.inject({ method: 'POST', url: '/drive/v1/files', headers: { authorization: `Bearer ${token}` }, payload: { kind: 'drive#folder', name: 'Holiday <photos>' } })
    folderId = folder.json().file.id
  })
  afterAll(async () => {
    await server?.close()
    await environment?.cleanup()
  })

  async function shareOf(body: Record<string, unknown>): Promise<string> {
    const reply = await server.app.inject({ method: 'POST', url: '/drive/v1/share', headers: { authorization: `Bearer ${token}` }, payload: { file_ids: [folderId], ...body } })
    expect(reply.statusCode).toBe(200)
    return reply.json().share_id
  }

  const ogTitle = (html: string) => /<meta property="og:title" content="([^"]*)"/.exec(html)?.[1]

  it('names the owner and the title of a public share, escaped, never cached, and counts no view', async () => {
    const id = await shareOf({})
    const page = await server.app.inject({ method: 'GET', url: `/s/${id}` })
    expect(page.statusCode).toBe(200)
    expect(page.headers['cache-control']).toBe('private, no-store')
    expect(ogTitle(page.body)).toBe('Ada shared “Holiday &lt;photos&gt;”')
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>')
    const row = await server.drive.db.selectFrom('drive_shares').select('view_count').where('id', '=', id).executeTakeFirstOrThrow()
    expect(Number(row.view_count)).toBe(0)
    // In the language of the path.
    expect(ogTitle((await server.app.inject({ method: 'GET', url: `/zh-CN/s/${id}` })).body)).toContain('Ada')
  })

  it('tells nothing of what a share behind a pass code holds, even with ?pwd= in the address', async () => {
    const id = await shareOf({ pass_code_option: 'REQUIRED' })
    const code = (await server.drive.db.selectFrom('drive_shares').select('pass_code').where('id', '=', id).executeTakeFirstOrThrow()).pass_code
    const page = await server.app.inject({ method: 'GET', url: `/s/${id}?pwd=${code}` })
    expect(page.statusCode).toBe(200)
    expect(ogTitle(page.body)).toBe('Ada shared files with you')
    expect(page.body).not.toContain('Holiday')
    expect(page.body).not.toContain(`og:url" content="http://127.0.0.1:3000/s/${id}?pwd`)
  })

  it('says when a share cannot be opened', async () => {
    const id = await shareOf({})
    await server.app.inject({ method: 'POST', url: '/drive/v1/share:batchDelete', headers: { authorization: `Bearer ${token}` }, payload: { ids: [id] } })
    expect(ogTitle((await server.app.inject({ method: 'GET', url: `/s/${id}` })).body)).toBe('This share is not available')
    expect(ogTitle((await server.app.inject({ method: 'GET', url: '/s/Vnosuchshare' })).body)).toBe('This share is not available')
  })
})
