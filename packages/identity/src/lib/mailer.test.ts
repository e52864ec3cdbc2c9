import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SMTPServer } from 'smtp-server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseMail, type SmtpSink, startSmtpSink } from '../../../../test-support/smtp-sink.js'
import { createMailer, FileOutboxMailer, type Mailer, SmtpMailer } from './mailer.js'
import { parseMailUrl } from './transport-url.js'
import { unusedPort } from '../../../../test-support/ports.js'

const FROM = 'Cumulus <no-reply@cumulus.test>'
const SUBJECT = '您的 Cumulus 注册验证码：048213（10 分钟内有效，请勿泄露）'
const TEXT = '您好！\n您的验证码是 048213，10 分钟内有效。\nCafé — 인증 코드 ✓'
const HTML = '<p>您的验证码是 <b>048213</b></p>'


describe('createMailer', () => {
  it('picks the transport from the parsed MAIL_URL', async () => {
    const smtp = createMailer({ transport: parseMailUrl('smtp://127.0.0.1:2525'), from: FROM })
    const smtps = createMailer({ transport: parseMailUrl('smtps://user:pass@127.0.0.1:4650'), from: FROM })
    const file = createMailer({ transport: parseMailUrl(pathToFileURL(join(tmpdir(), 'cumulus-outbox')).href), from: FROM })
    expect(smtp).toBeInstanceOf(SmtpMailer)
    expect(smtps).toBeInstanceOf(SmtpMailer)
    expect(file).toBeInstanceOf(FileOutboxMailer)
    await Promise.all([smtp.close(), smtps.close(), file.close()])
  })

  it('refuses (in parseMailUrl) an unknown scheme or a value that is not a URL, without echoing it', () => {
    for (const raw of ['sendmail:///usr/sbin/sendmail', 'https://mail.example.test/send', 'localhost:25', 'smtp://secret:pw@']) {
      expect(() => parseMailUrl(raw)).toThrow('must be smtp://user:pass@host:port, smtps://… or file://<dir>')
    }
  })
})

describe('SMTP mailer', () => {
  let sink: SmtpSink
  let mailer: Mailer

  beforeEach(async () => {
    sink = await startSmtpSink()
    mailer = createMailer({ transport: parseMailUrl(sink.url), from: FROM })
  })

  afterEach(async () => {
    // The mailer first: the sink waits for open client connections before it closes.
    await mailer.close()
    await sink.close()
  })

  it('delivers a non-ASCII subject, text and HTML intact through a real SMTP server', async () => {
    await mailer.send({ to: 'Reader@Example.test', subject: SUBJECT, text: TEXT, html: HTML })
    const mail = await sink.next('reader@example.test')
    expect(mail).toMatchObject({ from: 'no-reply@cumulus.test', to: ['reader@example.test'], subject: SUBJECT, text: TEXT })
    expect(mail.raw).toMatch(/^From: Cumulus <no-reply@cumulus\.test>$/im)
    expect(mail.raw).toMatch(/content-type: text\/html; charset=utf-8/i)
  })

  it('sends a text-only message', async () => {
    await mailer.send({ to: 'plain@example.test', subject: 'Plain', text: 'Just text.' })
    expect(await sink.next('plain@example.test')).toMatchObject({ subject: 'Plain', text: 'Just text.' })
    expect(sink.messages[0]!.raw).not.toMatch(/text\/html/i)
  })

  it('delivers every message of a parallel burst exactly once', async () => {
    const recipients = Array.from({ length: 8 }, (_, i) => `burst${i}@example.test`)
    await Promise.all(recipients.map((to, i) => mailer.send({ to, subject: `第 ${i} 封`, text: `body ${i}` })))
    const received = await Promise.all(recipients.map((to) => sink.next(to)))
    expect(received.map((m) => m.subject)).toEqual(recipients.map((_, i) => `第 ${i} 封`))
    expect(sink.messages).toHaveLength(recipients.length)
  })
})

describe('SMTP mailer against an authenticating server', () => {
  // Regression: the pool options were passed as nodemailer's per-message defaults, so every
  // message opened its own connection; they now travel in the URL, next to the credentials.
  it('logs in with the URL credentials and reuses pooled connections', async () => {
    let connections = 0
    const logins: { username: string | undefined; password: string | null | undefined }[] = []
    const subjects: string[] = []
    const server = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect(_session, callback) {
        connections++
        callback()
      },
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password })
        if (auth.username === 'mailer@cumulus.test' && auth.password === 'p@ss:wörd/1') callback(null, { user: auth.username })
        else callback(new Error('bad credentials'))
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          subjects.push(parseMail(Buffer.concat(chunks).toString('utf8')).subject)
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.server.address() as { port: number }
    const user = encodeURIComponent('mailer@cumulus.test')
    const password = encodeURIComponent('p@ss:wörd/1')
    const mailer = createMailer({ transport: parseMailUrl(`smtp://${user}:${password}@127.0.0.1:${port}`), from: FROM })
    try {
      for (let i = 0; i < 5; i++) await mailer.send({ to: 'reader@example.test', subject: `message ${i}`, text: 'x' })
      expect(subjects).toEqual(['message 0', 'message 1', 'message 2', 'message 3', 'message 4'])
      expect(connections).toBe(1)
      expect(logins).toEqual([{ username: 'mailer@cumulus.test', password: 'p@ss:wörd/1' }])
    } finally {
      await mailer.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('rejects when the server refuses the credentials', async () => {
    const server = new SMTPServer({
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(new Error('bad credentials')),
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.server.address() as { port: number }
    const mailer = createMailer({ transport: parseMailUrl(`smtp://someone:wrong@127.0.0.1:${port}`), from: FROM })
    try {
      await expect(mailer.send({ to: 'reader@example.test', subject: 's', text: 't' })).rejects.toThrow(/Invalid login|bad credentials/i)
    } finally {
      await mailer.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('SMTP mailer without a server', () => {
  it('rejects when the server cannot be reached', async () => {
    const mailer = createMailer({ transport: parseMailUrl(`smtp://127.0.0.1:${await unusedPort()}`), from: FROM })
    try {
      await expect(mailer.send({ to: 'nobody@example.test', subject: 's', text: 't' })).rejects.toThrow(/ECONNREFUSED/)
    } finally {
      await mailer.close()
    }
  })
})

describe('file outbox mailer', () => {
  let root: string

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cumulus-mail-'))
  })

  afterEach(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('writes one complete .eml per message into a directory it creates, leaving no temp files', async () => {
    const dir = join(root, 'outbox', 'mail')
    const mailer = createMailer({ transport: parseMailUrl(pathToFileURL(dir).href), from: FROM })
    const subjects = Array.from({ length: 5 }, (_, i) => `${SUBJECT} #${i}`)
    await Promise.all(subjects.map((subject, i) => mailer.send({ to: `reader${i}@example.test`, subject, text: TEXT, html: HTML })))
    await mailer.close()

    const names = await readdir(dir)
    expect(names).toHaveLength(subjects.length)
    for (const name of names) expect(name).toMatch(/^[^.].*\.eml$/)

    const parsed = await Promise.all(names.map(async (name) => ({ raw: await readFile(join(dir, name), 'utf8') })))
    for (const { raw } of parsed) {
      expect(raw).toMatch(/^From: Cumulus <no-reply@cumulus\.test>$/m)
      expect(raw).toMatch(/^To: reader\d@example\.test$/m)
      // Complete: the closing boundary of the multipart body is there.
      expect(raw.trimEnd()).toMatch(/--$/)
      expect(parseMail(raw).text).toBe(TEXT)
    }
    expect(parsed.map(({ raw }) => parseMail(raw).subject).sort()).toEqual([...subjects].sort())
  })

  it('keeps earlier messages when more arrive', async () => {
    const mailer = createMailer({ transport: parseMailUrl(pathToFileURL(root).href), from: FROM })
    await mailer.send({ to: 'a@example.test', subject: 'one', text: '1' })
    await mailer.send({ to: 'a@example.test', subject: 'two', text: '2' })
    const names = await readdir(root)
    const subjects = await Promise.all(names.map(async (name) => parseMail(await readFile(join(root, name), 'utf8')).subject))
    expect(subjects.sort()).toEqual(['one', 'two'])
  })
})
