import { type AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  /** The raw RFC 5322 message as received. */
  raw: string
  subject: string
  /** The decoded text/plain part. */
  text: string
}

export interface SmtpSink {
  url: string
  messages: ReceivedMail[]
  /** Resolves with the next message to `to` (or one already received and not yet taken). */
  next(to: string): Promise<ReceivedMail>
  close(): Promise<void>
}

/** Quoted-printable (RFC 2045 6.7) to bytes: `=XX` escapes, soft line breaks `=` + newline. */
function quotedPrintableBytes(input: string): Buffer {
  const chunks: Buffer[] = []
  for (const [token, hex] of input.replace(/=\r?\n/g, '').matchAll(/=([0-9A-F]{2})|[^=]+|=/gi)) {
    chunks.push(hex ? Buffer.from([Number.parseInt(hex, 16)]) : Buffer.from(token, 'utf8'))
  }
  return Buffer.concat(chunks)
}

/** Decodes bytes in a MIME charset; unknown labels fall back to UTF-8. */
function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

const ENCODED_WORD = /=\?([^?*\s]+)(?:\*[^?]*)?\?([bq])\?([^?\s]*)\?=/gi
const ENCODED_WORD_RUN = /=\?[^?\s]+\?[bq]\?[^?\s]*\?=(?:[ \t]*=\?[^?\s]+\?[bq]\?[^?\s]*\?=)*/gi

/**
 * RFC 2047 encoded words. Whitespace between adjacent encoded words is not part of the text
 * (encoders fold long subjects into several words), and adjacent words in one charset are
 * joined as bytes before decoding, so a character split across two words survives.
 */
function decodeHeader(value: string): string {
  return value.replace(ENCODED_WORD_RUN, (run) => {
    const pieces: { charset: string; bytes: Buffer }[] = []
    for (const [, charset = 'utf-8', encoding = 'b', text = ''] of run.matchAll(ENCODED_WORD)) {
      const bytes = encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : quotedPrintableBytes(text.replace(/_/g, ' '))
      const last = pieces.at(-1)
      if (last && last.charset === charset.toLowerCase()) last.bytes = Buffer.concat([last.bytes, bytes])
      else pieces.push({ charset: charset.toLowerCase(), bytes })
    }
    return pieces.map((p) => decodeCharset(p.bytes, p.charset)).join('')
  })
}

/**
 * Splits an entity at its first blank line and unfolds the header block (RFC 5322 2.2.3).
 * A body part may have no headers at all, and then starts with the blank line.
 */
function splitEntity(entity: string): { head: string; body: string } {
  const match = /^\r?\n|\r?\n\r?\n/.exec(entity)
  const head = match ? entity.slice(0, match.index) : entity
  const body = match ? entity.slice(match.index + match[0].length) : ''
  return { head: head.replace(/\r?\n(?=[ \t])/g, ''), body }
}

function headerValue(head: string, name: string): string | undefined {
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]
}

function parameter(headerLine: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(headerLine ?? '')
  return match ? (match[1] ?? match[2]) : undefined
}

/** The body parts of a multipart entity, without preamble and epilogue (RFC 2046 5.1.1). */
function multipartParts(body: string, boundary: string): string[] {
  const parts: string[] = []
  let current: string[] | null = null
  for (const line of body.split(/\r?\n/)) {
    const delimiter = line.trimEnd()
    if (delimiter === `--${boundary}` || delimiter === `--${boundary}--`) {
      if (current) parts.push(current.join('\r\n'))
      if (delimiter === `--${boundary}--`) return parts
      current = []
    } else current?.push(line)
  }
  if (current) parts.push(current.join('\r\n'))
  return parts
}

/** The decoded first text/plain part of an entity, searching nested multiparts; null when there is none. */
function plainText(head: string, body: string): string | null {
  const contentType = headerValue(head, 'content-type') ?? 'text/plain'
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  if (type.startsWith('multipart/')) {
    const boundary = parameter(contentType, 'boundary')
    if (!boundary) return null
    for (const part of multipartParts(body, boundary)) {
      const entity = splitEntity(part)
      const text = plainText(entity.head, entity.body)
      if (text !== null) return text
    }
    return null
  }
  if (type !== 'text/plain') return null
  if (/^attachment\b/i.test(headerValue(head, 'content-disposition') ?? '')) return null
  const encoding = headerValue(head, 'content-transfer-encoding')?.trim().toLowerCase()
  const charset = parameter(contentType, 'charset')
  if (encoding === 'base64') return decodeCharset(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset)
  if (encoding === 'quoted-printable') return decodeCharset(quotedPrintableBytes(body), charset)
  return body
}

/** Reads the subject and the text/plain part out of a (possibly nested multipart) message. */
export function parseMail(raw: string): { subject: string; text: string } {
  const { head, body } = splitEntity(raw)
  const subject = decodeHeader(headerValue(head, 'subject') ?? '').trim()
  return { subject, text: (plainText(head, body) ?? '').trim() }
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
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
        const raw = Buffer.concat(chunks).toString('utf8')
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          ...parseMail(raw),
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

/** The 6-digit code in a message. */
export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text)
  if (!match) throw new Error(`no 6-digit code in: ${text}`)
  return match[1]!
}
