import { lookup } from 'node:dns/promises'
import type { LookupAddress } from 'node:dns'
import http, { type ClientRequestArgs, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http'
import https from 'node:https'
import net, { isIP, type LookupFunction } from 'node:net'
import tls, { rootCertificates } from 'node:tls'
import { addressCategory, type AddressPolicy } from './address-policy.js'
import { OfflineDownloadFailed, OfflineHttpError, OfflineUrlRefused } from './errors.js'
import { utf8HeaderValue } from './header-text.js'

/** Redirects followed before giving up (browsers allow 20; a download needs far fewer). */
export const MAX_REDIRECTS = 10
/** Time from starting a hop (resolution included) to its response headers. */
export const HEADERS_TIMEOUT_MS = 30_000
const USER_AGENT = 'Cumulus-Offline-Download/1'
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])

/**
 * Ports the Fetch standard's "bad port" list blocks: their services (SMTP, IRC, SSH, …) accept
 * text that happens to be an HTTP request, so a download there would make this server talk to
 * them for the user (cross-protocol abuse), even on public hosts.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
])

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address a host name resolves to. Rejects (any error) when it does not resolve. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address in its own order. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

export interface SafeRequestDeps {
  /** Which addresses may be connected to (createAddressPolicy). */
  addresses: AddressPolicy
  /** Host name resolution; systemResolver unless a test injects one. */
  resolve?: Resolver
  /** HEADERS_TIMEOUT_MS unless set. */
  headersTimeoutMs?: number
  /** Extra trust anchors for https (PEM), for a LAN's private CA or the tests' certificate. The system's stay trusted. */
  extraCaCertificates?: readonly string[]
}

/** A URL whose host was resolved once and whose every address was allowed; requests go to `address`. */
export interface PinnedTarget {
  url: URL
  address: string
  family: 4 | 6
}

/** `url` as it may be shown and stored: no userinfo (a password), no fragment (never sent). */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href)
  copy.username = ''
  copy.password = ''
  copy.hash = ''
  return copy.href
}

/** Checks scheme, host and port of a URL about to be fetched. Throws OfflineUrlRefused. */
function requireFetchableUrl(url: URL): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OfflineUrlRefused('bad_scheme', `${url.protocol} links are not downloaded over HTTP`, redactUrl(url))
  if (url.hostname === '') throw new OfflineUrlRefused('bad_url', 'the link has no host', redactUrl(url))
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) throw new OfflineUrlRefused('bad_port', `port ${url.port} belongs to a service that is not HTTP`, redactUrl(url))
  return url
}

/**
 * Parses an offline download's http(s) link as a browser would (WHATWG URL: every spelling of
 * an IPv4 host becomes dotted decimal, IPv6 is compressed, the host is lower-cased). Throws
 * OfflineUrlRefused bad_url, bad_scheme or bad_port.
 */
export function parseDownloadUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OfflineUrlRefused('bad_url', 'the link is not a valid URL')
  }
  return requireFetchableUrl(url)
}

/** The host as the resolver and the socket want it: IPv6 without its brackets. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
}

/**
 * Resolves `url`'s host once and checks every address it resolves to (one private address
 * among public ones is enough to refuse: the socket might pick it). Literal addresses are not
 * resolved. Throws OfflineUrlRefused private_address, or OfflineDownloadFailed dns_failed.
 */
export async function requireAllowedTarget(deps: SafeRequestDeps, url: URL): Promise<PinnedTarget> {
  const host = bareHost(url)
  const literal = isIP(host)
  let addresses: readonly ResolvedAddress[]
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }]
  } else {
    try {
      addresses = await (deps.resolve ?? systemResolver)(host)
    } catch (cause) {
      throw new OfflineDownloadFailed('dns_failed', `${host} does not resolve`, { cause })
    }
  }
  const [first] = addresses
  if (first === undefined) throw new OfflineDownloadFailed('dns_failed', `${host} has no address`)
  for (const { address } of addresses) {
    if (!deps.addresses.isAllowed(address)) {
      const category = addressCategory(address).replace('_', '-')
      throw new OfflineUrlRefused('private_address', `${host} is a ${category} address (${address}), which downloads may not reach`, redactUrl(url), address)
    }
  }
  return { url, address: first.address, family: first.family }
}

/**
 * A lookup for http.request that answers the address already checked, whatever it is asked: a
 * second resolution could return another address (DNS rebinding) that nobody checked. Node
 * asks with `all: true` when it races IPv4 and IPv6 (autoSelectFamily), so both forms are served.
 */
function pinnedLookup(target: PinnedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (err: null, addresses: LookupAddress[]) => void)(null, [{ address: target.address, family: target.family }])
    else callback(null, target.address, target.family)
  }
}

/** What one connection reads at a time: the size libuv offers Node's own socket reads. */
const READ_BUFFER_BYTES = 64 * 1024

/**
 * The connection of one hop, reading into one buffer of its own (the socket's `onread`) instead of
 * a fresh 64 KiB buffer per read. A body of a gigabyte is 16,000 reads, each buffer garbage once
 * the HTTP parser has seen it, and V8 frees them only when it next collects: 20-30 MB of them were
 * dead at any time during a 1 GiB download (decision 023). Reuse is safe because the HTTP parser
 * copies what it keeps: header values become strings and each body slice is copied into a buffer
 * of its own before `'data'` returns (node_http_parser's on_body), which safe-request.test.ts
 * checks by holding a body's chunks back while the socket goes on reading. The socket pauses and
 * resumes as the response's consumer keeps up, as any socket does (net.Socket stops reading
 * into `onread` while paused).
 */
function reusingConnection(isHttps: boolean): NonNullable<ClientRequestArgs['createConnection']> {
  return (options) => {
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES)
    const onread = {
      buffer,
      callback: (bytes: number) => {
        // The client parses what it is given in this call (its 'data' listener), so the buffer is free again on return.
        socket.emit('data', buffer.subarray(0, bytes))
        return true
      },
    }
    // tls.connect takes `onread` as net.connect does (Node's docs); @types/node leaves it out of ConnectionOptions.
    const socket = isHttps ? tls.connect({ ...(options as tls.ConnectionOptions), ...{ onread } }) : net.connect({ ...(options as net.NetConnectOpts), onread })
    return socket
  }
}

function requestOnce(deps: SafeRequestDeps, target: PinnedTarget, headers: OutgoingHttpHeaders, signal: AbortSignal): Promise<IncomingMessage> {
  const { url } = target
  const host = bareHost(url)
  const isHttps = url.protocol === 'https:'
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions = {
      method: 'GET',
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      // Without an agent Node knows no default port (https would go to 80); with it, a link
      // without a port connects to 443 or 80 and its Host header names no port.
      defaultPort: isHttps ? 443 : 80,
      path: `${url.pathname}${url.search}`,
      headers,
      // A fresh connection per hop (no agent: a pooled socket could have been opened for another answer).
      createConnection: reusingConnection(isHttps),
      lookup: pinnedLookup(target),
      signal,
    }
    if (isHttps) {
      // The certificate is checked against the host name, not the address connected to; SNI
      // carries the name too, without the trailing dot RFC 6066 forbids.
      if (isIP(host) === 0) options.servername = host.replace(/\.$/, '')
      // Setting `ca` replaces Node's roots; the extra anchors add to them instead.
      if (deps.extraCaCertificates !== undefined) options.ca = [...rootCertificates, ...deps.extraCaCertificates]
    }
    const request = (isHttps ? https : http).request(options)
    request.once('response', resolve)
    // Kept after the response: a late error with no listener would crash the process.
    request.on('error', reject)
    request.end()
  })
}


/** Rejects as soon as `signal` aborts, with its reason; otherwise settles as `work` does. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/

/**
 * The error a failed exchange becomes: the caller's abort reason when it aborted (so it can tell
 * a cancel from a failure), our own typed errors as they are, network errors as
 * OfflineDownloadFailed with the original as cause.
 */
export function describeNetworkError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason
  if (error instanceof OfflineHttpError) return error
  const code = (error as { code?: unknown } | null)?.code
  const text = typeof code === 'string' ? code : String(error)
  if (typeof code === 'string' && TLS_CODES.test(code)) return new OfflineDownloadFailed('tls_failed', `the secure connection failed (${code})`, { cause: error })
  if (typeof code === 'string' && code.startsWith('HPE_')) return new OfflineDownloadFailed('bad_response', `the server's response is not valid HTTP (${code})`, { cause: error })
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new OfflineDownloadFailed('dns_failed', `the host does not resolve (${code})`, { cause: error })
  return new OfflineDownloadFailed('connection_lost', `the connection failed (${text})`, { cause: error })
}

/** Resolves, checks and requests one URL, all within the headers timeout. */
async function openHop(deps: SafeRequestDeps, url: URL, headers: OutgoingHttpHeaders, signal: AbortSignal): Promise<IncomingMessage> {
  const timeoutMs = deps.headersTimeoutMs ?? HEADERS_TIMEOUT_MS
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new OfflineDownloadFailed('headers_timeout', `no response within ${timeoutMs} ms`)), timeoutMs)
  // The request keeps this signal for its whole life: after the headers only `signal` can fire it.
  const hopSignal = AbortSignal.any([signal, deadline.signal])
  try {
    const target = await untilAborted(requireAllowedTarget(deps, url), hopSignal)
    return await requestOnce(deps, target, headers, hopSignal)
  } catch (error) {
    throw describeNetworkError(error, hopSignal)
  } finally {
    clearTimeout(timer)
  }
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Basic credentials from the link's userinfo, or null. */
function basicAuthorization(url: URL): string | null {
  if (url.username === '' && url.password === '') return null
  const user = percentDecoded(url.username)
  const password = percentDecoded(url.password)
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
}

export interface SafeResponse {
  /** The final response (not a redirect), headers received, body unread. The caller consumes or destroys it. */
  response: IncomingMessage
  /** The URL that answered, after redirects, without userinfo. */
  finalUrl: URL
}

/**
 * GETs `url` through the address policy, following up to MAX_REDIRECTS redirects by hand so each
 * hop is resolved, checked and pinned again (a public server may redirect to 169.254.169.254).
 * Redirects: 301, 302, 303, 307 and 308 with a Location, resolved against the current URL; the
 * method is GET throughout, so 303's switch to GET changes nothing. Any other status, 2xx or
 * not, is returned for the caller to judge.
 *
 * Userinfo: `user:pass@` in the link is the user's own credential for that server, sent as Basic
 * authorization to the link's origin only, and dropped on a redirect to another origin (as curl
 * and fetch do), so one server cannot collect credentials meant for another. Userinfo in a
 * Location is ignored. No URL this returns or throws carries userinfo.
 *
 * Rejects OfflineUrlRefused (bad_url, bad_scheme, bad_port, private_address,
 * too_many_redirects), OfflineDownloadFailed (dns_failed, headers_timeout, connection_lost,
 * tls_failed, bad_response), or `signal.reason` when `signal` aborts.
 */
export async function openSafeResponse(deps: SafeRequestDeps, input: { url: string; headers?: OutgoingHttpHeaders }, signal: AbortSignal): Promise<SafeResponse> {
  const first = parseDownloadUrl(input.url)
  const authorization = basicAuthorization(first)
  let url = first
  for (let redirects = 0; ; redirects += 1) {
    const headers: OutgoingHttpHeaders = {
      'user-agent': USER_AGENT,
      accept: '*/*',
      // The bytes as stored on the server: Node does not decode, and the GCID is of what we store.
      'accept-encoding': 'identity',
      ...input.headers,
    }
    if (authorization !== null && url.origin === first.origin) headers['authorization'] = authorization
    const response = await openHop(deps, url, headers, signal)
    const location = response.headers.location
    if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || location === undefined) {
      const finalUrl = new URL(redactUrl(url))
      return { response, finalUrl }
    }
    response.destroy()
    if (redirects === MAX_REDIRECTS) throw new OfflineUrlRefused('too_many_redirects', `more than ${MAX_REDIRECTS} redirects`, redactUrl(url))
    let next: URL
    try {
      next = new URL(utf8HeaderValue(location), url)
    } catch {
      throw new OfflineUrlRefused('bad_url', 'a redirect leads to an invalid URL', redactUrl(url))
    }
    url = requireFetchableUrl(next)
  }
}
