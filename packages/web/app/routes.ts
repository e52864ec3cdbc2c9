import { type RouteConfig, layout, route } from '@react-router/dev/routes'
import { DEFAULT_LOCALE, LOCALES } from '@cumulus/protocol'
import { PAGES } from './navigation/pages'

// Every page once per locale: `/about` (en-US, no prefix) and `/ko/about`, with the ids
// `about___en-US` and `about___ko` (spec 2: a route name and its locale joined by `___`).
const localizedPages = LOCALES.flatMap((locale) =>
  Object.entries(PAGES).map(([name, page]) => {
    const prefix = locale === DEFAULT_LOCALE ? '' : `/${locale}`
    const path = page.path === '/' ? prefix || '/' : `${prefix}${page.path}`
    return route(path, page.file, { id: `${name}___${locale}` })
  }),
)

export default [
  // `/en-US/...` is never canonical; this catches client-side navigations the server did not see.
  route(`/${DEFAULT_LOCALE}/*`, 'routes/default-locale-redirect.tsx', { id: 'default-locale-redirect' }),
  layout('layouts/default.tsx', [...localizedPages, route('*', 'routes/not-found.tsx', { id: 'not-found' })]),
] satisfies RouteConfig
