import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomId } from './secrets.js'
import type { SmsTransport } from './transport-url.js'

/** A text message to deliver. */
export interface OutgoingSms {
  /** E.164 phone number. */
  to: string
  text: string
}

/** Delivers SMS. Implementations: a file outbox (file://dir, one text file per message) and an HTTP provider. */
export interface SmsSender {
  /** Sends one message; rejects when the provider refuses it. */
  send(sms: OutgoingSms): Promise<void>
}

/** The SMS sender for a parsed SMS_URL. */
export function createSmsSender(transport: SmsTransport): SmsSender {
  return transport.kind === 'file' ? new FileOutboxSms(transport.directory) : new HttpSms(transport.url)
}

/** One text file per message: the number on the first line, then the text. */
export class FileOutboxSms implements SmsSender {
  constructor(private readonly dir: string) {}

  async send(sms: OutgoingSms) {
    await mkdir(this.dir, { recursive: true })
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${sms.to.replace(/\D/g, '')}-${randomId(6)}.txt`
    const temp = join(this.dir, `.${name}.tmp`)
    await writeFile(temp, `To: ${sms.to}\n\n${sms.text}\n`)
    await rename(temp, join(this.dir, name))
  }
}

/**
 * A generic HTTP provider: POSTs `{"to", "text"}` as JSON to the URL. Credentials in the URL's
 * user-info become HTTP basic auth. Any non-2xx answer is a failed send.
 */
export class HttpSms implements SmsSender {
  private readonly endpoint: string
  private readonly authorization: string | undefined

  constructor(url: string, private readonly timeoutMs = 10_000) {
    const parsed = new URL(url)
    this.authorization = parsed.username ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}` : undefined
    parsed.username = ''
    parsed.password = ''
    this.endpoint = parsed.toString()
  }

  async send(sms: OutgoingSms) {
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.authorization ? { authorization: this.authorization } : {}) },
      body: JSON.stringify({ to: sms.to, text: sms.text }),
      signal: AbortSignal.timeout(this.timeoutMs),
    })
    // Release the body on every answer: undici keeps the connection until an unread body is collected.
    await response.body?.cancel()
    if (!response.ok) throw new Error(`SMS provider answered ${response.status}`)
  }
}
