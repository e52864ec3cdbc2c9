import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, so the SDK's sign-up test reads
 * its code from a real e-mail. A trimmed copy of packages/identity/test/smtp-sink.ts (packages do
 * not import each other's test folders): it decodes what nodemailer sends, a text/plain part in
 * 7bit, quoted-printable or base64, possibly inside multipart/alternative.
 */

export interface ReceivedMail {
  to: string[]
  subject: string
  /** The decoded text/plain part. */
  text: string
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for MAIL_URL. */
  url: string
  messages: ReceivedMail[]
  /** Resolves with the next message to `to` (or one already received and not yet taken). */
  next(to: string): Promise<ReceivedMail>
  close(): Promise<void>
}

function quotedPrintable(input: string): Buffer {
  const chunks: Buffer[] = []
  for (const [token, hex] of input.replace(/=\r?\n/g, '').matchAll(/=([0-9A-F]{2})|[^=]+|=/gi)) {
    chunks.push(hex ? Buffer.from([Number.parseInt(hex, 16)]) : Buffer.from(token, 'utf8'))
  }
  return Buffer.concat(chunks)
}

/** RFC 2047 encoded words (`=?utf-8?B?…?=`), with the whitespace between adjacent words dropped. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      (encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : quotedPrintable(text.replace(/_/g, ' '))).toString('utf8'),
    )
}

function splitEntity(entity: string): { head: string; body: string } {
  const match = /^\r?\n|\r?\n\r?\n/.exec(entity)
  const head = match ? entity.slice(0, match.index) : entity
  return { head: head.replace(/\r?\n(?=[ \t])/g, ''), body: match ? entity.slice(match.index + match[0].length) : '' }
}

const header = (head: string, name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]

function plainText(head: string, body: string): string | null {
  const contentType = header(head, 'content-type') ?? 'text/plain'
  if (/^\s*multipart\//i.test(contentType)) {
    const boundary = /boundary\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(contentType)
    const delimiter = `--${boundary?.[1] ?? boundary?.[2] ?? ''}`
    for (const part of body.split(delimiter).slice(1)) {
      if (part.startsWith('--')) break
      const entity = splitEntity(part.replace(/^\r?\n/, ''))
      const text = plainText(entity.head, entity.body)
      if (text !== null) return text
    }
    return null
  }
  if (!/^\s*text\/plain/i.test(contentType)) return null
  const encoding = header(head, 'content-transfer-encoding')?.trim().toLowerCase()
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') return quotedPrintable(body).toString('utf8')
  return body
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = []
  const taken = new Set<ReceivedMail>()
  const waiters: { to: string; resolve: (m: ReceivedMail) => void }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const { head, body } = splitEntity(Buffer.concat(chunks).toString('utf8'))
        const mail: ReceivedMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: decodeHeader(header(head, 'subject') ?? '').trim(),
          text: (plainText(head, body) ?? '').trim(),
        }
        messages.push(mail)
        const waiter = waiters.findIndex((w) => mail.to.includes(w.to))
        if (waiter >= 0) {
          taken.add(mail)
          waiters.splice(waiter, 1)[0]!.resolve(mail)
        }
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    next(to) {
      const address = to.toLowerCase()
      const ready = messages.find((m) => !taken.has(m) && m.to.includes(address))
      if (ready) {
        taken.add(ready)
        return Promise.resolve(ready)
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} arrived`)), 10_000)
        waiters.push({ to: address, resolve: (m) => (clearTimeout(timer), resolve(m)) })
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The 6-digit code in a message's text. */
export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text)
  if (!match) throw new Error(`no 6-digit code in: ${text}`)
  return match[1]!
}
