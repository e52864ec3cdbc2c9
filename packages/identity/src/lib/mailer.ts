import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Transporter } from 'nodemailer'
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

/**
 * nodemailer is loaded with the first message, not with the server: most running time sends no
 * mail, and its three dozen modules would sit in every process's memory.
 */
let nodemailerModule: Promise<typeof import('nodemailer')> | null = null
const loadNodemailer = () => (nodemailerModule ??= import('nodemailer').then((m) => m.default ?? m))

const POOL_DEFAULTS = { pool: 'true', maxConnections: '2' } as const

/** Sends through an SMTP server with a pooled connection. */
export class SmtpMailer implements Mailer {
  private transport: Promise<Transporter> | null = null
  private readonly url: string

  constructor(url: string, private readonly from: string) {
    // Transport options go in the URL's query: nodemailer reads `createTransport(url, x)`'s second
    // argument as per-message defaults, so pool settings there are silently ignored. Explicit
    // query values (including `tls.rejectUnauthorized=false` for a relay without a valid
    // certificate) win over these defaults.
    const pooled = new URL(url)
    for (const [key, value] of Object.entries(POOL_DEFAULTS)) if (!pooled.searchParams.has(key)) pooled.searchParams.set(key, value)
    this.url = pooled.toString()
  }

  async send(mail: OutgoingMail) {
    this.transport ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport(this.url))
    await (await this.transport).sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
  }

  async close() {
    ;(await this.transport)?.close()
  }
}

/** Writes each message as an RFC 5322 `.eml` file (written to a temp name, then renamed, so readers never see half a file). */
export class FileOutboxMailer implements Mailer {
  private builder: Promise<Transporter> | null = null

  constructor(private readonly dir: string, private readonly from: string) {}

  async send(mail: OutgoingMail) {
    this.builder ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }))
    const info = (await (await this.builder).sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })) as unknown as { message: Buffer }
    await mkdir(this.dir, { recursive: true })
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomId(6)}.eml`
    const temp = join(this.dir, `.${name}.tmp`)
    await writeFile(temp, info.message)
    await rename(temp, join(this.dir, name))
  }

  async close() {}
}
