import { resolve } from 'node:path'

/*
 * MAIL_URL and SMS_URL, parsed once. The server's config parses each setting with these (so an
 * operator's mistake is listed at start-up with every other), and passes the parsed transport
 * down: createMailer and createSmsSender never read a URL string again.
 */

/** A folder that receives one file per message (the default outboxes, and tests). */
export interface FileOutboxTransport {
  kind: 'file'
  /** Absolute path. */
  directory: string
}

export type MailTransport = FileOutboxTransport | { kind: 'smtp'; /** `smtp://` or `smtps://`, credentials in the user info, nodemailer options in the query. */ url: string }

export type SmsTransport = FileOutboxTransport | { kind: 'http'; /** The provider endpoint that receives `POST {"to","text"}`; credentials become basic auth. */ url: string }

/**
 * `file://<dir>` as operators write it: `file:///abs/dir`, or a relative `file://./outbox` or
 * `file://outbox`, resolved against the working directory.
 */
function fileOutbox(raw: string): FileOutboxTransport {
  const rest = raw.slice('file://'.length)
  if (rest === '') throw new Error('file:// needs a folder, e.g. file:///var/lib/cumulus/outbox')
  return { kind: 'file', directory: resolve(decodeURIComponent(rest)) }
}

function urlWithHost(raw: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(raw)
    return protocols.includes(url.protocol) && url.hostname !== ''
  } catch {
    return false
  }
}

/** Parses MAIL_URL. Throws an Error naming the accepted forms; the message never echoes the URL (it may hold a password). */
export function parseMailUrl(raw: string): MailTransport {
  if (raw.startsWith('file://')) return fileOutbox(raw)
  if (urlWithHost(raw, ['smtp:', 'smtps:'])) return { kind: 'smtp', url: raw }
  throw new Error('must be smtp://user:pass@host:port, smtps://… or file://<dir>')
}

/** Parses SMS_URL. Throws an Error naming the accepted forms; the message never echoes the URL. */
export function parseSmsUrl(raw: string): SmsTransport {
  if (raw.startsWith('file://')) return fileOutbox(raw)
  if (urlWithHost(raw, ['http:', 'https:'])) return { kind: 'http', url: raw }
  throw new Error('must be file://<dir> or an http(s):// provider endpoint')
}
