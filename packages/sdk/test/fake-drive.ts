import type { DriveFile, ErrorEntry } from '@cumulus/protocol'
import { IdentityClient } from '../src/identity-client.js'
import { MemoryStorage, storageKeys } from '../src/storage.js'
import type { XhrLike } from '../src/drive/tus.js'

/**
 * A fake drive server for the SDK's unit tests: the JSON calls a test routes itself, file
 * creation and reads, and a tus 1.0 server (HEAD, PATCH, DELETE) that keeps the bytes, so a
 * test can check the server ends up with exactly the file. Reachable by `fetch` and by a fake
 * XMLHttpRequest that reports upload progress.
 */

export interface Call {
  method: string
  path: string
  url: URL
  headers: Record<string, string>
  /** Parsed JSON body of JSON calls. */
  json: unknown
  /** Raw body bytes of tus PATCH calls. */
  bytes: Uint8Array | undefined
  /** 'fetch' or 'xhr'. */
  via: 'fetch' | 'xhr'
  signal: AbortSignal
  /** `init.keepalive` of fetch calls (a request that may outlive the page). */
  keepalive: boolean
}

/** Replaces the default handling of a call: a Response, an Error to throw (network failure), or undefined for the default. */
export type Interceptor = (call: Call, drive: FakeDrive) => Response | Error | undefined | Promise<Response | Error | undefined>

export interface FakeUpload {
  id: string
  fileId: string
  size: number
  offset: number
  data: Uint8Array
}

export const ORIGIN = 'https://drive.test'
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
export const wire = (entry: ErrorEntry, description = '') =>
  json({ error: entry.reason, error_code: entry.code, error_description: description, error_uri: '', details: [] }, entry.status)

let serial = 0

export function aDriveFile(overrides: Partial<DriveFile> = {}): DriveFile {
  serial += 1
  return {
    kind: 'drive#file',
    id: `f${serial}`,
    parent_id: '',
    name: `file-${serial}.bin`,
    user_id: 'u1',
    size: '0',
    revision: '1',
    file_extension: '.bin',
    mime_type: 'application/octet-stream',
    file_category: 'OTHER',
    folder_type: 'NORMAL',
    hash: '',
    md5_checksum: '',
    phase: 'PHASE_TYPE_COMPLETE',
    trashed: false,
    starred: false,
    created_time: '2030-01-01T00:00:00.000Z',
    modified_time: '2030-01-01T00:00:00.000Z',
    delete_time: '',
    thumbnail_link: '',
    icon_link: '',
    web_content_link: '',
    links: {},
    medias: [],
    audit: { status: 'STATUS_OK', message: '', title: '' },
    params: {},
    space: '',
    writable: true,
    ...overrides,
  }
}

export class FakeDrive {
  readonly calls: Call[] = []
  readonly files = new Map<string, DriveFile>()
  readonly uploads = new Map<string, FakeUpload>()
  /** Hashes the server already has content for (instant upload). */
  readonly knownHashes = new Set<string>()
  /** JSON routes keyed `METHOD /path`, tried before the built-in ones. */
  readonly routes: Record<string, (call: Call) => Response> = {}
  /** Tried in order before the default handling of every call. */
  readonly interceptors: Interceptor[] = []
  /** Access tokens the server accepts. */
  readonly validTokens = new Set(['at1'])
  /** The endpoint the server hands out: absolute (default) or a path. */
  endpointStyle: 'absolute' | 'relative' = 'absolute'
  #uploadSerial = 0
  #tokenSerial = 1

  /** Calls as `METHOD /path`, in order (JSON and tus alike). */
  get trail(): string[] {
    return this.calls.map((c) => `${c.method} ${c.path}`)
  }

  /** The tus calls only, as `METHOD offset` (`HEAD`, `PATCH 0`, `DELETE`). */
  get tusTrail(): string[] {
    return this.calls
      .filter((c) => c.path.startsWith('/drive/v1/uploads/'))
      .map((c) => (c.method === 'PATCH' ? `PATCH ${c.headers['upload-offset']}` : c.method))
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input))
    const headers = lowerCased(init.headers as Record<string, string> | undefined)
    const method = (init.method ?? 'GET').toUpperCase()
    const signal = init.signal ?? new AbortController().signal
    let jsonBody: unknown
    let bytes: Uint8Array | undefined
    if (typeof init.body === 'string') jsonBody = JSON.parse(init.body)
    else if (init.body != null) bytes = new Uint8Array(await new Response(init.body as BodyInit).arrayBuffer())
    const call: Call = { method, path: url.pathname, url, headers, json: jsonBody, bytes, via: 'fetch', signal, keepalive: init.keepalive === true }
    return this.handle(call)
  }

  /** A fake XMLHttpRequest factory; PATCH bodies are reported as sent in two halves before the reply. */
  readonly xhr = (): XhrLike => new FakeXhr(this)

  /** Runs the interceptors, then the default handling; honours the call's signal like fetch does. */
  async handle(call: Call): Promise<Response> {
    this.calls.push(call)
    if (call.signal.aborted) throw abortError()
    const abort = new Promise<never>((_, reject) => call.signal.addEventListener('abort', () => reject(abortError()), { once: true }))
    const outcome = await Promise.race([this.#dispatch(call), abort])
    if (outcome instanceof Error) throw outcome
    return outcome
  }

  async #dispatch(call: Call): Promise<Response | Error> {
    for (const interceptor of this.interceptors) {
      const result = await interceptor(call, this)
      if (result !== undefined) return result
    }
    const route = this.routes[`${call.method} ${call.path}`]
    if (route) return route(call)
    if (call.path.startsWith('/v1/')) return this.#identity(call)
    if (!this.validTokens.has(call.headers['authorization']?.replace(/^Bearer /, '') ?? '')) {
      return json({ error: 'unauthenticated', error_code: 16, error_description: 'bad token', error_uri: '', details: [] }, 401)
    }
    if (call.path.startsWith('/drive/v1/uploads/')) return this.#tus(call)
    if (call.method === 'POST' && call.path === '/drive/v1/files') return this.#create(call)
    const fileMatch = /^\/drive\/v1\/files\/([^/:]+)$/.exec(call.path)
    if (call.method === 'GET' && fileMatch) {
      const file = this.files.get(decodeURIComponent(fileMatch[1] as string))
      return file ? json(file) : json({ error: 'file_not_found', error_code: 5, error_description: '', error_uri: '', details: [] }, 404)
    }
    return json({ error: 'not_found', error_code: 5, error_description: `no route ${call.method} ${call.path}`, error_uri: '', details: [] }, 404)
  }

  #identity(call: Call): Response {
    if (call.method === 'POST' && call.path === '/v1/auth/token') {
      this.#tokenSerial += 1
      const n = this.#tokenSerial
      this.validTokens.add(`at${n}`)
      return json({ token_type: 'Bearer', access_token: `at${n}`, refresh_token: `rt${n}`, expires_in: 7200, sub: 'u1' })
    }
    return json({ error: 'not_found', error_code: 5 }, 404)
  }

  #create(call: Call): Response {
    const body = call.json as Record<string, unknown>
    if (body.kind === 'drive#folder') {
      const folder = aDriveFile({ kind: 'drive#folder', name: String(body.name), parent_id: String(body.parent_id ?? ''), size: '0' })
      this.files.set(folder.id, folder)
      return json({ file: folder, task: null, upload_type: '' })
    }
    const size = Number(body.size)
    const hash = typeof body.hash === 'string' ? body.hash : ''
    if (hash !== '' && this.knownHashes.has(hash)) {
      const file = aDriveFile({ name: String(body.name), parent_id: String(body.parent_id ?? ''), size: String(size), hash })
      this.files.set(file.id, file)
      return json({ upload_type: 'UPLOAD_TYPE_RESUMABLE', file, task: null, resumable: this.#resumable('unused') })
    }
    const file = aDriveFile({ name: String(body.name), parent_id: String(body.parent_id ?? ''), size: String(size), phase: 'PHASE_TYPE_PENDING' })
    this.files.set(file.id, file)
    this.#uploadSerial += 1
    const id = `up${this.#uploadSerial}`
    this.uploads.set(id, { id, fileId: file.id, size, offset: 0, data: new Uint8Array(size) })
    return json({ upload_type: 'UPLOAD_TYPE_RESUMABLE', file, task: null, resumable: this.#resumable(id) })
  }

  #resumable(id: string) {
    const path = `/drive/v1/uploads/${id}`
    return {
      kind: 'drive#resumable',
      provider: 'PROVIDER_TUS',
      params: { endpoint: this.endpointStyle === 'absolute' ? `${ORIGIN}${path}` : path, expiration: '2030-01-08T00:00:00.000Z' },
    }
  }

  #tus(call: Call): Response {
    if (call.headers['tus-resumable'] !== '1.0.0') return new Response('Tus-Resumable missing', { status: 412 })
    const upload = this.uploads.get(call.path.slice('/drive/v1/uploads/'.length))
    if (!upload) return new Response('The file for this url was not found\n', { status: 404 })
    const tusHeaders = { 'tus-resumable': '1.0.0', 'upload-offset': String(upload.offset) }
    if (call.method === 'HEAD') return new Response(null, { status: 200, headers: { ...tusHeaders, 'upload-length': String(upload.size), 'cache-control': 'no-store' } })
    if (call.method === 'DELETE') {
      this.uploads.delete(upload.id)
      this.files.delete(upload.fileId)
      return new Response(null, { status: 204, headers: { 'tus-resumable': '1.0.0' } })
    }
    if (call.method === 'PATCH') {
      if (call.headers['content-type'] !== 'application/offset+octet-stream') return new Response('bad content type', { status: 415 })
      if (Number(call.headers['upload-offset']) !== upload.offset) return new Response('Upload-Offset conflict', { status: 409 })
      this.accept(upload, call.bytes ?? new Uint8Array(0))
      return new Response(null, { status: 204, headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(upload.offset) } })
    }
    return new Response('method not allowed', { status: 405 })
  }

  /** Stores bytes at the upload's offset (at most `limit` of them); completes the file on the last byte. */
  accept(upload: FakeUpload, bytes: Uint8Array, limit = bytes.byteLength): void {
    const taken = bytes.subarray(0, Math.min(limit, upload.size - upload.offset))
    upload.data.set(taken, upload.offset)
    upload.offset += taken.byteLength
    if (upload.offset === upload.size) {
      const file = this.files.get(upload.fileId)
      if (file) this.files.set(file.id, { ...file, phase: 'PHASE_TYPE_COMPLETE', hash: 'GCID'.padEnd(40, '0') })
    }
  }

  /** The upload a tus call addresses. */
  uploadOf(call: Call): FakeUpload {
    const upload = this.uploads.get(call.path.slice('/drive/v1/uploads/'.length))
    if (!upload) throw new Error(`no upload at ${call.path}`)
    return upload
  }
}

/** A fake XMLHttpRequest over FakeDrive.handle. */
class FakeXhr implements XhrLike {
  readonly #drive: FakeDrive
  readonly #abort = new AbortController()
  #method = 'GET'
  #url = ''
  readonly #headers: Record<string, string> = {}
  #response: Response | null = null
  #text = ''
  status = 0
  readonly upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  ontimeout: (() => void) | null = null

  constructor(drive: FakeDrive) {
    this.#drive = drive
  }

  get responseText(): string {
    return this.#text
  }

  open(method: string, url: string): void {
    this.#method = method
    this.#url = url
  }

  setRequestHeader(name: string, value: string): void {
    this.#headers[name.toLowerCase()] = value
  }

  getResponseHeader(name: string): string | null {
    return this.#response?.headers.get(name) ?? null
  }

  send(body: Blob | Uint8Array): void {
    void this.#send(body)
  }

  abort(): void {
    this.#abort.abort()
  }

  async #send(body: Blob | Uint8Array): Promise<void> {
    const bytes = new Uint8Array(await new Response(body as BodyInit).arrayBuffer())
    const url = new URL(this.#url)
    const call: Call = { method: this.#method, path: url.pathname, url, headers: { ...this.#headers }, json: undefined, bytes, via: 'xhr', signal: this.#abort.signal, keepalive: false }
    // Upload progress before the reply, as a browser reports it while the body goes out.
    for (const loaded of [Math.floor(bytes.byteLength / 2), bytes.byteLength]) {
      await Promise.resolve()
      if (this.#abort.signal.aborted) break
      this.upload.onprogress?.({ loaded })
    }
    try {
      const response = await this.#drive.handle(call)
      this.#response = response
      this.status = response.status
      this.#text = await response.text()
      this.onload?.()
    } catch {
      if (this.#abort.signal.aborted) this.onabort?.()
      else this.onerror?.()
    }
  }
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError')
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value
  return out
}

/** An identity client signed in as `u1` with access token `at1`, sending through the fake. */
export function signedInIdentity(drive: FakeDrive, storage = new MemoryStorage()): IdentityClient {
  const keys = storageKeys('web')
  if (storage.getItem(keys.currentAccount) === null) {
    const credentials = { access_token: 'at1', refresh_token: 'rt1', token_type: 'Bearer', expires_in: 7200, expires_at: Date.now() + 3600_000, sub: 'u1' }
    storage.setItem(keys.credentials('u1'), JSON.stringify(credentials))
    storage.setItem(keys.accounts, JSON.stringify(['u1']))
    storage.setItem(keys.currentAccount, 'u1')
  }
  return new IdentityClient({ clientId: 'web', origins: [ORIGIN], storage, deviceId: 'dev-1', locale: 'en-US', fetch: drive.fetch as typeof fetch, locks: null, retry: 0 })
}

/** Deterministic bytes: position i holds i mod 251. */
export function patternBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i += 1) bytes[i] = i % 251
  return bytes
}

/** A promise and its resolver, for holding a fake reply until the test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}
