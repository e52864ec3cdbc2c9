// Regression tests for issue 10: after SIGTERM, a server holding an idle keep-alive connection and
// a half-sent upload PATCH waited for the PATCH until the 10 s shutdown timeout gave up (exit 1).
import { EventEmitter } from 'node:events'
import { type Socket, connect } from 'node:net'
import { TUS_VERSION, WEB_CLIENT_ID } from '@cumulus/protocol'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Captured, type TestEnvironment, testEnvironment } from '../test/test-env.js'
import { type CumulusConfig, loadConfig } from './config.js'
import { runCli } from './run-cli.js'
import { type CumulusServer, IN_FLIGHT_GRACE_MS, buildServer } from './server.js'

const UPLOAD_SIZE_BYTES = 1024 * 1024
const SENT_BYTES = 64 * 1024

/** A raw HTTP/1.1 connection: what it has received so far, and whether the server has closed it. */
interface RawConnection {
  socket: Socket
  received(): string
  closed: Promise<void>
}

async function openConnection(base: string): Promise<RawConnection> {
  const { hostname, port } = new URL(base)
  const socket = connect(Number(port), hostname)
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let text = ''
  socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return { socket, received: () => text, closed }
}

/** A keep-alive connection that has had one reply and now sits idle. */
async function idleKeepAlive(base: string): Promise<RawConnection> {
  const connection = await openConnection(base)
  connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${new URL(base).host}\r\nConnection: keep-alive\r\n\r\n`)
  await vi.waitFor(() => expect(connection.received()).toContain('{"status":"ok"}'))
  expect(connection.received()).not.toMatch(/\r\nconnection: close/i)
  return connection
}

async function signUpAndCreateUpload(base: string): Promise<{ token: string; endpoint: string }> {
  const signUp = await fetch(`${base}/v1/auth/signup/anonymously`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: WEB_CLIENT_ID }) })
  const { access_token: token } = (await signUp.json()) as { access_token: string }
  const created = await fetch(`${base}/drive/v1/files`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ kind: 'drive#file', name: 'half.bin', parent_id: '', size: String(UPLOAD_SIZE_BYTES), upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' } }),
  })
  const body = (await created.json()) as { resumable: { params: { endpoint: string } } }
  return { token, endpoint: body.resumable.params.endpoint }
}

/** Sends a PATCH's headers, announcing the whole upload, and only SENT_BYTES of its body. */
async function halfSentPatch(base: string, token: string, endpoint: string): Promise<RawConnection & { headerBytes: number }> {
  const connection = await openConnection(base)
  const head = [
    `PATCH ${new URL(endpoint).pathname} HTTP/1.1`,
    `Host: ${new URL(base).host}`,
    `Authorization: Bearer ${token}`,
    `Tus-Resumable: ${TUS_VERSION}`,
    'Upload-Offset: 0',
    'Content-Type: application/offset+octet-stream',
    `Content-Length: ${UPLOAD_SIZE_BYTES}`,
    '',
    '',
  ].join('\r\n')
  connection.socket.write(head)
  connection.socket.write(Buffer.alloc(SENT_BYTES, 0x61))
  return { ...connection, headerBytes: Buffer.byteLength(head) }
}

async function uploadOffset(base: string, token: string, endpoint: string): Promise<number> {
  const reply = await fetch(`${base}${new URL(endpoint).pathname}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'tus-resumable': TUS_VERSION } })
  expect(reply.status).toBe(200)
  return Number(reply.headers.get('upload-offset'))
}

describe('shutdown with connections open', () => {
  let environment: TestEnvironment | undefined
  let server: CumulusServer | undefined
  const connections: RawConnection[] = []
  /** Builds and starts a server (on `config`, else a fresh environment's) and records the sockets it accepts. */
  async function startServer(config?: CumulusConfig) {
    if (!config) {
      environment = await testEnvironment()
      config = loadConfig(environment.env)
    }
    const started = await buildServer(config, { housekeeping: false, web: false })
    server = started
    const serverSockets: Socket[] = []
    started.app.server.on('connection', (socket: Socket) => serverSockets.push(socket))
    const base = await started.app.listen({ port: 0, host: '127.0.0.1' })
    return { config, base, serverSockets, started }
  }

  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.socket.destroy()
    await server?.close()
    await environment?.cleanup()
    server = undefined
    environment = undefined
  })

  it('close() closes an idle keep-alive connection and ends a half-sent upload PATCH, keeping the bytes it received', async () => {
    const { config, base, serverSockets, started } = await startServer()

    const { token, endpoint } = await signUpAndCreateUpload(base)
    const idle = await idleKeepAlive(base)
    const patch = await halfSentPatch(base, token, endpoint)
    connections.push(idle, patch)
    // The server has read every byte sent so far (the PATCH is the newest connection).
    await vi.waitFor(() => expect(serverSockets.at(-1)?.bytesRead).toBe(patch.headerBytes + SENT_BYTES))

    await started.close()

    await idle.closed
    await patch.closed
    // The PATCH got its normal reply with the offset reached, and the connection closed after it.
    const reply = patch.received()
    expect(reply).toMatch(/^HTTP\/1\.1 204 /)
    expect(reply).toMatch(new RegExp(`\\r\\nupload-offset: ${SENT_BYTES}\\r\\n`, 'i'))
    expect(reply).toMatch(/\r\nconnection: close\r\n/i)

    // After a restart the client resumes where the server said it stopped.
    const { base: restarted } = await startServer(config)
    expect(await uploadOffset(restarted, token, endpoint)).toBe(SENT_BYTES)
  })

  // Issue 11: a PATCH cut by the server closing must keep the bytes that reached the server, so
  // the client resumes from there rather than from 0. Fastify's own app.close() (what a host
  // embedding the app calls), then a new server on the same data folder, then tus HEAD.
  it.each([
    ['a Content-Length body, one write', { chunked: false, parts: [SENT_BYTES] }],
    ['a Content-Length body, several writes of odd sizes', { chunked: false, parts: [1, 4093, 70_001, 12_345] }],
    ['a chunked body', { chunked: true, parts: [10_000, 33_333, 7] }],
  ] as const)('app.close() during a PATCH (%s) keeps every byte that reached the server; HEAD after a restart answers that offset', async (_name, { chunked, parts }) => {
    const { config, base, serverSockets, started } = await startServer()
    const { token, endpoint } = await signUpAndCreateUpload(base)

    const patch = await openConnection(base)
    connections.push(patch)
    const head = [
      `PATCH ${new URL(endpoint).pathname} HTTP/1.1`,
      `Host: ${new URL(base).host}`,
      `Authorization: Bearer ${token}`,
      `Tus-Resumable: ${TUS_VERSION}`,
      'Upload-Offset: 0',
      'Content-Type: application/offset+octet-stream',
      chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${UPLOAD_SIZE_BYTES}`,
      '',
      '',
    ].join('\r\n')
    patch.socket.write(head)
    let wireBytes = Buffer.byteLength(head)
    for (const [index, size] of parts.entries()) {
      const data = Buffer.alloc(size, 0x61 + index)
      const framed = chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data
      patch.socket.write(framed)
      wireBytes += framed.length
      await vi.waitFor(() => expect(serverSockets.at(-1)?.bytesRead).toBe(wireBytes))
    }
    const sentBytes = parts.reduce((sum, size) => sum + size, 0)

    await started.app.close()
    await patch.closed
    expect(patch.received()).toMatch(new RegExp(`^HTTP/1\\.1 204 [\\s\\S]*\\r\\nupload-offset: ${sentBytes}\\r\\n`, 'i'))

    const { base: restarted } = await startServer(config)
    expect(await uploadOffset(restarted, token, endpoint)).toBe(sentBytes)
  })

  // Issue 11: a creation with upload (tus POST with a body) was not cut like a PATCH. app.close()
  // waited for its body for as long as the client kept the connection (server.close() for its
  // 5 s grace, then cut the connection), and the client never got the URL of the bytes it sent.
  it('app.close() during a creation with upload answers 201 with the URL and the bytes received; HEAD after a restart answers that offset', async () => {
    const { config, base, serverSockets, started } = await startServer()
    const signUp = await fetch(`${base}/v1/auth/signup/anonymously`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: WEB_CLIENT_ID }) })
    const { access_token: token } = (await signUp.json()) as { access_token: string }

    const post = await openConnection(base)
    connections.push(post)
    const head = [
      'POST /drive/v1/uploads HTTP/1.1',
      `Host: ${new URL(base).host}`,
      `Authorization: Bearer ${token}`,
      `Tus-Resumable: ${TUS_VERSION}`,
      `Upload-Length: ${UPLOAD_SIZE_BYTES}`,
      `Upload-Metadata: filename ${Buffer.from('created.bin').toString('base64')}`,
      'Content-Type: application/offset+octet-stream',
      `Content-Length: ${UPLOAD_SIZE_BYTES}`,
      '',
      '',
    ].join('\r\n')
    post.socket.write(head)
    post.socket.write(Buffer.alloc(SENT_BYTES, 0x62))
    await vi.waitFor(() => expect(serverSockets.at(-1)?.bytesRead).toBe(Buffer.byteLength(head) + SENT_BYTES))

    const closedAt = Date.now()
    await started.app.close()
    await post.closed
    // Not the grace period: the body was cut at once.
    expect(Date.now() - closedAt).toBeLessThan(IN_FLIGHT_GRACE_MS)
    const reply = post.received()
    expect(reply).toMatch(/^HTTP\/1\.1 201 /)
    expect(reply).toMatch(new RegExp(`\\r\\nupload-offset: ${SENT_BYTES}\\r\\n`, 'i'))
    expect(reply).toMatch(/\r\nconnection: close\r\n/i)
    const endpoint = /\r\nlocation: (\S+)\r\n/i.exec(reply)?.[1]
    expect(endpoint).toBeDefined()

    const { base: restarted } = await startServer(config)
    expect(await uploadOffset(restarted, token, endpoint!)).toBe(SENT_BYTES)
  })

  it('cumulus serve exits 0 on SIGTERM with those connections open: the graceful path, not the SHUTDOWN_TIMEOUT_MS give-up', async () => {
    environment = await testEnvironment({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' })
    const stdout = new Captured()
    const stderr = new Captured()
    const signals = new EventEmitter()
    const exit = runCli(['serve'], environment.env, { stdout, stderr, signals })
    const base = await vi.waitFor(
      () => {
        const line = stdout.text.split('\n').find((l) => l.includes('Cumulus is serving'))
        expect(line, stderr.text).toBeDefined()
        return (JSON.parse(line!) as { listen: string }).listen
      },
      { timeout: 10_000 },
    )

    const { token, endpoint } = await signUpAndCreateUpload(base)
    connections.push(await idleKeepAlive(base), await halfSentPatch(base, token, endpoint))
    // The PATCH is a request in flight (Fastify logged it), not a connection still idle.
    await vi.waitFor(() => expect(stdout.text).toMatch(/"method":"PATCH".*"msg":"incoming request"/))

    signals.emit('SIGTERM', 'SIGTERM')
    // serveCommand resolves 1 when its SHUTDOWN_TIMEOUT_MS timer gives up; 0 only when close() finished.
    await expect(exit).resolves.toBe(0)
    expect(stdout.text).not.toContain('shutdown took too long')
    expect(stdout.text).not.toContain('requests still running after the grace period')
  })
})
