import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { randomId } from './secrets.js'
import type { MailTransport } from './transport-url.js'

/** An e-mail to deliver. */
export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html?: string | undefined
}

/** Delivers mail. Implementations: SMTP (MAIL_URL smtp://...) and a file outbox (file://dir, one .eml per message). */
export interface Mailer {
  /** Sends one message; rejects when the transport refuses it. */
  send(mail: OutgoingMail): Promise<void>
  close(): Promise<void>
}


export interface MailerOptions {
  /** MAIL_URL as parseMailUrl parsed it. */
  transport: MailTransport
  /** The From header. */
  from: string
}

/** The mailer for a parsed MAIL_URL. */
export function createMailer(options: MailerOptions): Mailer {
  const { transport } = options
  return transport.kind === 'file' ? new FileOutboxMailer(transport.directory, options.from) : new SmtpMailer(transport.url, options.from)
}

const POOL_DEFAULTS = { pool: 'true', maxConnections: '2' } as const

/** Sends through an SMTP server with a pooled connection. */
export class SmtpMailer implements Mailer {
  private readonly transport: nodemailer.Transporter

  constructor(url: string, private readonly from: string) {
    // Transport options go in the URL's query: nodemailer reads `createTransport(url, x)`'s second
    // argument as per-message defaults, so pool settings there are silently ignored. Explicit
    // query values (including `tls.rejectUnauthorized=false` for a relay without a valid
    // certificate) win over these defaults.
    const pooled = new URL(url)
    for (const [key, value] of Object.entries(POOL_DEFAULTS)) if (!pooled.searchParams.has(key)) pooled.searchParams.set(key, value)
    this.transport = nodemailer.createTransport(pooled.toString())
  }

  async send(mail: OutgoingMail) {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
  }

  async close() {
    this.transport.close()
  }
}

/** Writes each message as an RFC 5322 `.eml` file (written to a temp name, then renamed, so readers never see half a file). */
export class FileOutboxMailer implements Mailer {
  private readonly builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })

  constructor(private readonly dir: string, private readonly from: string) {}

  async send(mail: OutgoingMail) {
    const info = (await this.builder.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })) as unknown as { message: Buffer }
    await mkdir(this.dir, { recursive: true })
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomId(6)}.eml`
    const temp = join(this.dir, `.${name}.tmp`)
    await writeFile(temp, info.message)
    await rename(temp, join(this.dir, name))
  }

  async close() {}
}
