import { type ReactNode, useEffect, useSyncExternalStore } from 'react'
import { isRouteErrorResponse, Links, type LoaderFunctionArgs, Meta, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunction, useLocation, useMatches, useRouteError, useRouteLoaderData } from 'react-router'
import type { SharePreview } from '@cumulus/protocol'
import type { WebPublicConfig } from '../src/public-config'
import './app.css'
import { COLOR_MODE_SCRIPT, FORCED_COLOR_MODE_ATTRIBUTE, forcedColorMode } from './color-mode/color-mode'
import { ColorModeProvider } from './color-mode/color-mode-provider'
import { useNonce } from './security/nonce'
import { ErrorPage } from './components/error-page'
import { localeDirection, localeFromPath } from './i18n/locale-routing'
import { chunkFailure, clearChunkFailure, setPendingNavigation, subscribeChunkFailure } from './navigation/chunk-reload'
import { isChunkLoadError, reloadApp, browserReloadDeps } from './navigation/reload-guard'

/** What a route may declare in its `handle` export. */
export interface RouteHandle {
  /** Forces a colour mode on this page ('light' or 'dark'; 'system' is refused with a warning). */
  colorMode?: 'light' | 'dark'
}

declare module 'react-router' {
  interface AppLoadContext {
    /** The browser-safe configuration (packages/web/src/public-config.ts), from the server. */
    publicConfig: WebPublicConfig
    /** This response's CSP script nonce (the web plugin draws one per response). Never sent to the browser as data. */
    cspNonce: string
    /**
     * What the share page (`/s/{share_id}`) may show before it is opened, for its title and link
     * previews; null for a share that does not exist. Absent when the server gives no lookup
     * (the page then renders generic texts).
     */
    sharePreview?: (shareId: string) => Promise<SharePreview | null>
  }
}

/** Hands the browser its allow-listed configuration, once per page load. */
export function loader({ context }: LoaderFunctionArgs) {
  return { publicConfig: context.publicConfig }
}

// The public config does not change between navigations.
export const shouldRevalidate: ShouldRevalidateFunction = () => false

/** The browser-safe configuration (platform links, deep link, deletion grace period). */
export function usePublicConfig(): WebPublicConfig {
  const data = useRouteLoaderData<typeof loader>('root')
  if (!data) throw new Error('usePublicConfig: the root loader data is missing')
  return data.publicConfig
}

function useForcedColorMode() {
  const matches = useMatches()
  const requested = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.colorMode !== undefined)
  return forcedColorMode((requested?.handle as RouteHandle | undefined)?.colorMode)
}

export function Layout({ children }: { children: ReactNode }) {
  const locale = localeFromPath(useLocation().pathname)
  const forced = useForcedColorMode()
  // '' in the browser: hydration leaves the server's attributes as they are.
  const nonce = useNonce() || undefined
  return (
    // The colour-mode script changes <html>'s class before React hydrates it.
    <html lang={locale} dir={localeDirection(locale)} {...{ [FORCED_COLOR_MODE_ATTRIBUTE]: forced ?? undefined }} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: COLOR_MODE_SCRIPT }} />
        <meta name="theme-color" content="#2f6fed" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#0b1020" media="(prefers-color-scheme: dark)" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <ColorModeProvider forced={forced}>{children}</ColorModeProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** React Router's data router, which HydratedRouter publishes for its own tooling. */
interface DataRouterLike {
  subscribe(listener: (state: { navigation: { state: string; location?: { pathname: string; search: string } } }) => void): () => void
}

export default function App() {
  const location = useLocation()
  const failed = useSyncExternalStore(subscribeChunkFailure, chunkFailure, () => null)

  useEffect(() => {
    // The router's own subscription fires synchronously when a navigation starts, before its
    // route module is imported; React state (useNavigation) would arrive in a later transition.
    const router = (window as unknown as { __reactRouterDataRouter?: DataRouterLike }).__reactRouterDataRouter
    return router?.subscribe(({ navigation }) => {
      setPendingNavigation(navigation.state !== 'idle' && navigation.location ? `${navigation.location.pathname}${navigation.location.search}` : null)
    })
  }, [])
  // A new navigation that succeeds leaves the failure behind.
  useEffect(() => clearChunkFailure(), [location.key])

  if (failed) return <ErrorPage status={500} path={failed} />
  return <Outlet />
}

export function ErrorBoundary() {
  const error = useRouteError()
  const location = useLocation()
  // A route chunk that failed to load (new deploy, flaky network): reload the target path once.
  if (typeof window !== 'undefined' && isChunkLoadError(error) && reloadApp(browserReloadDeps(), `${location.pathname}${location.search}`)) return null
  const status = isRouteErrorResponse(error) ? error.status : 500
  return <ErrorPage status={status} path={location.pathname} />
}
