import { existsSync } from 'node:fs'
import { Readable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import fastifyStatic from '@fastify/static'
import { AppError, GenericErrors, sameOriginLocation } from '@cumulus/protocol'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { createRequestHandler, type ServerBuild } from 'react-router'
import { negotiateEncoding, VARIANT_CODINGS, type VariantCoding } from './accept-encoding.js'
import { encodePage, encodeStream, isCompressibleType, MIN_COMPRESS_BYTES } from './page-encoding.js'
import type { WebPublicConfig } from './public-config.js'
import { type CachedPage, DEFAULT_RENDER_CACHE, isCacheableResponse, RenderCache, type RenderCacheOptions } from './render-cache.js'
import { IMMUTABLE, staticFiles } from './static-files.js'

/** Where `react-router build` writes (packages/web/build): `server/index.js` and `client/`. */
export const WEB_BUILD_DIRECTORY = fileURLToPath(new URL('../build/', import.meta.url))

export interface WebPluginOptions {
  publicConfig: WebPublicConfig
  /** Default: WEB_BUILD_DIRECTORY. */
  buildDirectory?: string
  /** The server-rendered page cache; false turns it off. Default: DEFAULT_RENDER_CACHE. */
  renderCache?: RenderCacheOptions | false
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
  const loadContext = Object.freeze({ publicConfig: options.publicConfig })
  const cache = options.renderCache === false ? null : new RenderCache(options.renderCache ?? DEFAULT_RENDER_CACHE)
  const cachePolicyOf = (build.entry.module as EntryServerExtras).documentCachePolicy

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
      const response = await handle(fetchRequest, loadContext)
      if (policy) {
        // What is stored is the page every visitor shares: this visitor's own cookies stay out.
        const shared = withoutCookies(response, policy.setCookies)
        if (isCacheableResponse(shared)) {
          const body = Buffer.from(await response.arrayBuffer())
          // Compressed once here rather than on every hit (about 1 ms for our pages).
          const page: CachedPage = { status: shared.status, headers: [...shared.headers], body, encoded: encodePage(body) }
          cache!.set(policy.key, page)
          return sendCachedPage(request, reply, page, policy.setCookies, 'miss')
        }
      }
      return sendFetchResponse(request, reply, response)
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
  try {
    return new URL(`${origin}${target.startsWith('/') ? target : `/${target}`}`)
  } catch {
    throw new AppError(GenericErrors.invalid_argument, { description: 'the request target or Host header is not a valid URL' })
  }
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

function sendCachedPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage, setCookies: readonly string[], state: 'hit' | 'miss'): FastifyReply {
  reply.status(page.status)
  // The stored length is the identity body's; Fastify sets the length of what is sent.
  for (const [name, value] of page.headers) if (name !== 'content-length') reply.header(name, value)
  if (setCookies.length > 0) reply.header('set-cookie', [...setCookies])
  reply.header('x-render-cache', state)
  const codings = VARIANT_CODINGS.filter((coding) => page.encoded?.[coding])
  if (codings.length === 0) return reply.send(page.body)
  varyOnAcceptEncoding(reply)
  const coding = negotiateEncoding(request.headers['accept-encoding'], codings)
  if (coding === 'identity') return reply.send(page.body)
  reply.header('content-encoding', coding)
  return reply.send(page.encoded![coding as VariantCoding])
}

/**
 * Sends a response that is not cached (data requests, redirects, pages setting cookies, the
 * cache turned off), compressing a text body as it streams.
 */
function sendFetchResponse(request: FastifyRequest, reply: FastifyReply, response: Response): FastifyReply {
  reply.status(response.status)
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
