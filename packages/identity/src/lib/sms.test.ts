import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSmsSender, FileOutboxSms, HttpSms } from './sms.js'
import { parseSmsUrl } from './transport-url.js'

const TEXT = '【Cumulus】您的注册验证码是 048213，10 分钟内有效。'

describe('createSmsSender', () => {
  it('picks the sender from the parsed SMS_URL', () => {
    expect(createSmsSender(parseSmsUrl(pathToFileURL(join(tmpdir(), 'cumulus-sms')).href))).toBeInstanceOf(FileOutboxSms)
    expect(createSmsSender(parseSmsUrl('http://127.0.0.1:9/sms'))).toBeInstanceOf(HttpSms)
    expect(createSmsSender(parseSmsUrl('https://user:key@sms.example.test/v1/messages'))).toBeInstanceOf(HttpSms)
  })

  it('refuses (in parseSmsUrl) an unknown scheme, without echoing it', () => {
    expect(() => parseSmsUrl('smpp://user:key@sms.example.test:2775')).toThrow('must be file://<dir> or an http(s):// provider endpoint')
  })
})

describe('FileOutboxSms', () => {
  let root: string

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cumulus-sms-'))
  })

  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('writes one file per message, number first, into a directory it creates, leaving no temp files', async () => {
    const dir = join(root, 'outbox', 'sms')
    const sms = createSmsSender(parseSmsUrl(pathToFileURL(dir).href))
    // Parallel sends to one number in the same millisecond still get a file each.
    await Promise.all([0, 1, 2].map((i) => sms.send({ to: '+6512345678', text: `${TEXT} #${i}` })))
    await sms.send({ to: '+821012345678', text: 'other' })

    const names = await readdir(dir)
    expect(names).toHaveLength(4)
    for (const name of names) expect(name).toMatch(/^[^.].*\.txt$/)
    const contents = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')))
    expect(contents.sort()).toEqual([
      `To: +6512345678\n\n${TEXT} #0\n`,
      `To: +6512345678\n\n${TEXT} #1\n`,
      `To: +6512345678\n\n${TEXT} #2\n`,
      'To: +821012345678\n\nother\n',
    ])
    expect(names.filter((n) => n.includes('821012345678'))).toHaveLength(1)
  })
})

describe('HttpSms', () => {
  interface Received {
    url: string
    authorization: string | undefined
    contentType: string | undefined
    body: unknown
  }
  let app: FastifyInstance
  let received: Received[]
  let base: string
  let status: number

  beforeEach(async () => {
    received = []
    status = 202
    app = Fastify()
    app.post('/v1/messages', async (request, reply) => {
      received.push({ url: request.url, authorization: request.headers.authorization, contentType: request.headers['content-type'], body: request.body })
      return reply.code(status).send({ status })
    })
    // Answers only once the client has given up (the socket closes), so nothing is left pending.
    app.post('/slow', (request) => new Promise((resolve) => request.socket.once('close', () => resolve({}))))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    base = address.replace('http://', '')
  })

  afterEach(async () => {
    await app.close()
  })

  it('POSTs {to, text} as JSON with basic auth from the URL credentials', async () => {
    const user = encodeURIComponent('acct@cumulus')
    const key = encodeURIComponent('k:e/y ü')
    await createSmsSender(parseSmsUrl(`http://${user}:${key}@${base}/v1/messages?route=otp`)).send({ to: '+6512345678', text: TEXT })
    expect(received).toEqual([
      {
        url: '/v1/messages?route=otp',
        authorization: `Basic ${Buffer.from('acct@cumulus:k:e/y ü').toString('base64')}`,
        contentType: 'application/json',
        body: { to: '+6512345678', text: TEXT },
      },
    ])
  })

  it('sends no authorization header when the URL has no credentials', async () => {
    await new HttpSms(`http://${base}/v1/messages`).send({ to: '+6512345678', text: 'hi' })
    expect(received).toHaveLength(1)
    expect(received[0]!.authorization).toBeUndefined()
  })

  it.each([400, 401, 429, 500, 503])('rejects when the provider answers %i', async (answer) => {
    status = answer
    await expect(new HttpSms(`http://${base}/v1/messages`).send({ to: '+6512345678', text: 'hi' })).rejects.toThrow(`SMS provider answered ${answer}`)
    expect(received).toHaveLength(1)
  })

  it('rejects when the endpoint does not exist', async () => {
    await expect(new HttpSms(`http://${base}/nowhere`).send({ to: '+6512345678', text: 'hi' })).rejects.toThrow('SMS provider answered 404')
  })

  it('rejects when the provider does not answer in time', async () => {
    await expect(new HttpSms(`http://${base}/slow`, 200).send({ to: '+6512345678', text: 'hi' })).rejects.toThrow(/timeout|aborted/i)
  })
})
