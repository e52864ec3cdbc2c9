import { PassThrough } from 'node:stream'
import { LOCALES } from '@cumulus/protocol'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { type AppLoadContext, type EntryContext, type HandleErrorFunction, isRouteErrorResponse, ServerRouter } from 'react-router'
import { createI18n } from './i18n/i18n'
import { documentLocale, localeFromPath } from './i18n/locale-routing'
import { loadLocaleMessages } from './i18n/messages'
import { NonceProvider } from './security/nonce'

/** Gives up on a render that has not finished streaming (a hung loader) after this long. */
export const streamTimeout = 5_000

// One i18next instance per locale for the life of the process: requests only read them (the
// language of an instance never changes), so building one per request would be wasted work.
const serverI18n = Promise.all(LOCALES.map(async (locale) => [locale, createI18n(locale, { [locale]: await loadLocaleMessages(locale) })] as const)).then(
  (entries) => new Map(entries),
)

// The HTML cache's rule lives on its own (document-cache-policy.ts); the web plugin finds it here.
export { documentCachePolicy } from './document-cache-policy'

/**
 * Logs errors of loaders, actions and rendering. Answers the client caused (a 404, a POST to a
 * page without an action) are not faults of ours and stay out of the error log, as do
 * requests the visitor abandoned.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return
  console.error(error)
}

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext, loadContext: AppLoadContext) {
  // Only a document request reaches this function, which is exactly the "first access" the
  // locale cookie and the browser-language redirect apply to (spec 2).
  const detected = documentLocale(request)
  if (detected.redirect) return detected.redirect
  if (detected.setCookie) responseHeaders.append('set-cookie', detected.setCookie)

  const url = new URL(request.url)
  const i18n = (await serverI18n).get(localeFromPath(url.pathname))!
  // This response's script nonce, drawn by the web plugin, which names it in the page's CSP:
  // React Router's scripts, the streamed data, React's own inline scripts and the colour-mode
  // script all carry it. A page rendered without one runs no script (the policy has no fallback).
  const nonce = loadContext.cspNonce

  // Crawlers get the whole page at once; browsers get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    // Cleared once the render is over: a pending timer would keep a shutting-down server's
    // process alive for up to its full delay after the last page it served.
    let abortTimer: ReturnType<typeof setTimeout> | undefined
    const respond = () => {
      shellRendered = true
      const body = new PassThrough()
      responseHeaders.set('content-type', 'text/html; charset=utf-8')
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
      pipe(body)
    }
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18n}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (readyEvent === 'onShellReady') respond()
        },
        onAllReady() {
          clearTimeout(abortTimer)
          if (readyEvent === 'onAllReady') respond()
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors after the shell are already in the stream; log them once here.
          if (shellRendered) console.error(error)
        },
      },
    )
    abortTimer = setTimeout(abort, streamTimeout + 1_000)
  })
}
