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

function decodeQuotedPrintable(input: string): string {
  const bytes: number[] = []
  const soft = input.replace(/=\r?\n/g, '')
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3)
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  ).replace(/\?=\s+=\?/g, '')
}

/** Reads subject and the text/plain part out of a (possibly multipart) message. */
export function parseMail(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ')
  const subject = decodeHeader(/^subject:\s*(.*)$/im.exec(unfolded)?.[1] ?? '')
  const body = rest.join('\n\n')
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)?.[1]
  const parts = boundary ? body.split(`--${boundary}`) : [`${head}\n\n${body}`]
  for (const part of parts) {
    const [partHead = '', ...partBody] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/)
    if (boundary && !/content-type:\s*text\/plain/i.test(partHead)) continue
    const content = partBody.join('\n\n')
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(partHead)?.[1]?.toLowerCase()
    const text = encoding === 'base64' ? Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(content) : content
    return { subject, text: text.trim() }
  }
  return { subject, text: '' }
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
