import { existsSync } from 'node:fs'
import { Readable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import fastifyStatic from '@fastify/static'
import { AppError, GenericErrors, sameOriginLocation, type SharePreview } from '@cumulus/protocol'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { negotiateEncoding, VARIANT_CODINGS } from './accept-encoding.js'
import { isHtml, newNonce, pageContentSecurityPolicy, WEB_SECURITY_HEADERS } from './content-security-policy.js'
import { encodeBody, encodeStream, isCompressibleType, MIN_COMPRESS_BYTES } from './page-encoding.js'
import type { WebPublicConfig } from './public-config.js'
import { type CachedPage, DEFAULT_RENDER_CACHE, isCacheableResponse, pageWithNonce, RenderCache, type RenderCacheOptions, splitAtNonce } from './render-cache.js'
import { IMMUTABLE, staticFiles } from './static-files.js'

/** Where `react-router build` writes (packages/web/build): `server/index.js` and `client/`. */
export const WEB_BUILD_DIRECTORY = fileURLToPath(new URL('../build/', import.meta.url))

export interface WebPluginOptions {
  publicConfig: WebPublicConfig
  /** Default: WEB_BUILD_DIRECTORY. */
  buildDirectory?: string
  /** The server-rendered page cache; false turns it off. Default: DEFAULT_RENDER_CACHE. */
  renderCache?: RenderCacheOptions | false
  /**
   * Looks up what the share page (`/s/{share_id}`) may show before anyone opens the share (its
   * title and Open Graph tags for link previews): null for an unknown share. Counts no view and
   * takes no pass code. Absent: the page renders generic texts.
   */
  sharePreview?: (shareId: string) => Promise<SharePreview | null>
}

/** What the app's entry.server module may export besides its request handler. */
interface EntryServerExtras {
  documentCachePolicy?: (request: Request) => { key: string; setCookies: string[] } | null
}

/**
 * Paths that belong to the APIs. An unknown API path must answer the contract's JSON
 * `not_found`, never the HTML 404 page, so clients see an error they can read.
 */
const API_PREFIXES = ['/v1/', '/drive/v1/', '/vip/v1/', '/decompress/v1/', '/.well-known/', '/captcha/']

/**
 * Serves the web app: the hashed client assets and public files as static routes (from memory,
 * precompressed, static-files.ts), and every other GET/HEAD/POST through React Router's request
 * handler (SSR, data requests, actions), compressed by Accept-Encoding. Encapsulated: its body
 * handling does not leak into the API routes around it.
 */
export const webPlugin: FastifyPluginAsync<WebPluginOptions> = async (app, options) => {
  const buildDirectory = options.buildDirectory ?? WEB_BUILD_DIRECTORY
  const serverEntry = `${buildDirectory}server/index.js`
  if (!existsSync(serverEntry)) {
    throw new Error(`The web app is not built (${serverEntry} is missing). Run \`npm run build\` at the repository root.`)
  }
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild
  const handle = createRequestHandler(build, 'production')
  const cache = options.renderCache === false ? null : new RenderCache(options.renderCache ?? DEFAULT_RENDER_CACHE)
  const cachePolicyOf = (build.entry.module as EntryServerExtras).documentCachePolicy

  // nosniff and the referrer policy on everything this plugin serves; pages add their CSP below.
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(WEB_SECURITY_HEADERS)
  })

  // Every file present at start-up gets an exact route, so every other path reaches React
  // Router. Hashed assets also have a prefix route, which only files written by a rebuild after
  // start-up reach (exact routes win): a page rendered by the new build finds its chunks. Those
  // come from disk, uncompressed, until the next start.
  await app.register(staticFiles, { clientDirectory: `${buildDirectory}client` })
  await app.register(fastifyStatic, {
    root: `${buildDirectory}client/assets`,
    prefix: '/assets/',
    wildcard: true,
    index: false,
    decorateReply: false,
    cacheControl: false,
    setHeaders(res) {
      res.setHeader('cache-control', IMMUTABLE)
    },
    // Precompressed variants are representations of their file, not files of their own.
    allowedPath: (pathname) => !/\.(br|gz)$/.test(pathname),
  })

  // React Router reads request bodies itself (form actions), so hand it the raw stream.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload))

  app.route({
    method: ['GET', 'HEAD', 'POST'],
    url: '/*',
    handler: async (request, reply) => {
      const path = request.url.split('?', 1)[0]!
      if (API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
        throw new AppError(GenericErrors.not_found, { description: `no API route ${request.method} ${path}` })
      }
      const fetchRequest = toFetchRequest(request, reply)
      // Data requests (`*.data`) are cheap and carry no document; only pages are cached.
      const policy = cache && cachePolicyOf && !path.endsWith('.data') ? cachePolicyOf(fetchRequest) : null
      if (policy) {
        const hit = cache!.get(policy.key)
        if (hit) return sendCachedPage(request, reply, hit, policy.setCookies, 'hit')
      }
      // This render's script nonce (entry.server.tsx puts it on every script it writes).
      const nonce = newNonce()
      const response = await handle(fetchRequest, Object.freeze({ publicConfig: options.publicConfig, cspNonce: nonce, ...(options.sharePreview ? { sharePreview: options.sharePreview } : {}) }))
      if (policy) {
        // What is stored is the page every visitor shares: this visitor's own cookies stay out,
        // and so does the nonce, which each response replaces with its own (render-cache.ts).
        const shared = withoutCookies(response, policy.setCookies)
        if (isCacheableResponse(shared)) {
          const body = Buffer.from(await response.arrayBuffer())
          const headers = [...shared.headers].filter(([name]) => name !== 'content-security-policy' && name !== 'content-length')
          const page: CachedPage = { status: shared.status, headers, parts: splitAtNonce(body, nonce) }
          cache!.set(policy.key, page)
          return sendCachedPage(request, reply, page, policy.setCookies, 'miss')
        }
      }
      return sendFetchResponse(request, reply, response, nonce)
    },
  })
}

/** The origin this request was sent to, as the browser sees it. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`
}

function toFetchRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const origin = originOf(request)
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  // Loaders stop work for a visitor who has gone away.
  const controller = new AbortController()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort()
  })
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body instanceof Readable
  return new Request(requestUrlOf(request.url, origin), {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.body as Readable) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

/**
 * The URL of a request: its target appended to the origin, never resolved against it. Resolving
 * reads a target of `//evil.example` as another host (or `//` as no URL at all); appended, it is
 * the path `//evil.example` on this origin, which the router answers with its 404 page.
 */
function requestUrlOf(target: string, origin: string): URL {
  // The asterisk-form (`*`) is for OPTIONS alone (RFC 9112 3.2.4), answered before any page; a
  // target that is neither a path nor an absolute URL names no page.
  if (!target.startsWith('/') && !/^https?:\/\//i.test(target)) {
    throw new AppError(GenericErrors.invalid_argument, { description: 'the request target must be a path' })
  }
  let url: URL
  try {
    url = new URL(`${origin}${target.startsWith('/') ? target : `/${target}`}`)
  } catch {
    throw new AppError(GenericErrors.invalid_argument, { description: 'the request target or Host header is not a valid URL' })
  }
  url.pathname = canonicalPagePath(url.pathname)
  return url
}

/**
 * A page path as React Router may safely see it. The router decodes each segment and resolves
 * the result as a URL again, so an encoded backslash, tab or newline next to a slash
 * (`/%5c%5c`, `/%09//`) became `//`, which it read as a host (or as no URL at all: a 500).
 * Control characters are dropped, encoded backslashes become slashes and runs of slashes one
 * (Fastify's router ignores duplicate slashes too); `%2F` stays, as the router keeps it encoded.
 */
function canonicalPagePath(pathname: string): string {
  return pathname.replace(/%(?:[01][0-9a-f]|7f)/gi, '').replace(/%5c/gi, '/').replace(/\/{2,}/g, '/')
}

/** The response's status and headers without the given Set-Cookie values (the body is not read). */
function withoutCookies(response: Response, cookies: readonly string[]): Response {
  if (cookies.length === 0) return response
  const headers = new Headers(response.headers)
  headers.delete('set-cookie')
  for (const cookie of response.headers.getSetCookie()) if (!cookies.includes(cookie)) headers.append('set-cookie', cookie)
  return new Response(null, { status: response.status, headers })
}

/** Adds `accept-encoding` to the reply's Vary header. */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  if (vary === undefined) reply.header('vary', 'accept-encoding')
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`)
}

/**
 * Sends a stored page with a nonce of its own: a fresh one for every response, so no two visitors
 * share one (an attacker who reads the page learns a nonce that is already spent). Compressed
 * after the nonce is in, for the coding this visitor accepts.
 */
function sendCachedPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage, setCookies: readonly string[], state: 'hit' | 'miss'): FastifyReply {
  reply.status(page.status)
  for (const [name, value] of page.headers) reply.header(name, value)
  if (setCookies.length > 0) reply.header('set-cookie', [...setCookies])
  reply.header('x-render-cache', state)
  const nonce = newNonce()
  reply.header('content-security-policy', pageContentSecurityPolicy(nonce))
  const body = pageWithNonce(page, nonce)
  if (body.length < MIN_COMPRESS_BYTES) return reply.send(body)
  varyOnAcceptEncoding(reply)
  const coding = negotiateEncoding(request.headers['accept-encoding'], VARIANT_CODINGS)
  if (coding === 'identity') return reply.send(body)
  const encoded = encodeBody(body, coding)
  if (encoded.length >= body.length) return reply.send(body)
  reply.header('content-encoding', coding)
  return reply.send(encoded)
}

/**
 * Sends a response that is not cached (data requests, redirects, pages setting cookies, the
 * cache turned off), compressing a text body as it streams.
 */
function sendFetchResponse(request: FastifyRequest, reply: FastifyReply, response: Response, nonce: string): FastifyReply {
  reply.status(response.status)
  // A page rendered for this response carries this nonce; the policy names it.
  if (isHtml(response.headers.get('content-type'))) reply.header('content-security-policy', pageContentSecurityPolicy(nonce))
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue
    // The app builds its redirects with sameOriginLocation already; this is the backstop for
    // every Location this plugin sends, so no route (today's or tomorrow's) can redirect a
    // visitor off our origin with a target taken from the request.
    if (name === 'location') reply.header(name, sameOriginLocation(value, originOf(request)))
    else reply.header(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) reply.header('set-cookie', cookies)
  if (!response.body) return reply.send()
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)
  const length = response.headers.get('content-length')
  const compressible =
    isCompressibleType(response.headers.get('content-type')) &&
    !response.headers.has('content-encoding') &&
    !response.headers.has('content-range') &&
    (length === null || Number(length) >= MIN_COMPRESS_BYTES)
  if (!compressible) return reply.send(body)
  varyOnAcceptEncoding(reply)
  const coding = negotiateEncoding(request.headers['accept-encoding'], VARIANT_CODINGS)
  if (coding === 'identity') return reply.send(body)
  reply.header('content-encoding', coding)
  reply.removeHeader('content-length')
  return reply.send(encodeStream(body, coding))
}
