import type { SharePreview } from '@cumulus/protocol'
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, type ShouldRevalidateFunction, useLoaderData, useParams } from 'react-router'
import { localeFromPath } from '../i18n/locale-routing'
import { loadLocaleMessages } from '../i18n/messages'
import { loadShareApi } from '../share-page/share-api'
import { shareMetaTexts } from '../share-page/share-meta'
import { SharePage } from '../share-page/share-page'

/**
 * A share page is one visitor's view of a share as it is now: never stored by the browser or a
 * proxy (the share may be cancelled a minute later, and its URL may carry the pass code). The
 * server's render cache leaves it out too (document-cache-policy.ts).
 */
const NO_STORE = { 'Cache-Control': 'private, no-store' }

/**
 * Server-rendered for link previews: chat apps read the title and Open Graph tags without
 * running scripts. The texts come from the server's `sharePreview` lookup (the web plugin's
 * option), which counts no view and takes no pass code; without it they stay generic.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const shareId = params.shareId ?? ''
  const url = new URL(request.url)
  const locale = localeFromPath(url.pathname)
  let preview: SharePreview | null | undefined
  if (context.sharePreview) {
    try {
      preview = await context.sharePreview(shareId)
    } catch (error) {
      // The page itself opens the share in the browser; only its preview texts fall back.
      console.error(error)
    }
  }
  const messages = await loadLocaleMessages(locale)
  return data(
    {
      preview: preview ?? null,
      texts: shareMetaTexts(messages.sharePage.meta, preview, locale),
      appName: messages.common.appName,
      // Without the query: `?pwd=` must not travel on into a preview card.
      url: `${url.origin}${url.pathname}`,
    },
    { headers: NO_STORE },
  )
}

export const headers: HeadersFunction = () => NO_STORE

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => {
  if (!loaded) return [{ name: 'robots', content: 'noindex, nofollow' }]
  const { texts, appName, url } = loaded
  return [
    { title: `${texts.title} · ${appName}` },
    { name: 'description', content: texts.description },
    { property: 'og:title', content: texts.title },
    { property: 'og:description', content: texts.description },
    { property: 'og:type', content: 'website' },
    { property: 'og:url', content: url },
    { property: 'og:site_name', content: appName },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: texts.title },
    { name: 'twitter:description', content: texts.description },
    // A share is for the people it was sent to, not for search engines.
    { name: 'robots', content: 'noindex, nofollow' },
  ]
}

// Dropping `?pwd=` from the address once the share is open must not look the preview up again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams, defaultShouldRevalidate }) => currentParams.shareId !== nextParams.shareId && defaultShouldRevalidate

/** Keyed by the share: another share's page starts afresh (its code, folders and selection). */
export default function ShareRoute() {
  const shareId = useParams().shareId ?? ''
  const { preview } = useLoaderData<typeof loader>()
  return <SharePage key={shareId} shareId={shareId} preview={preview} loadApi={loadShareApi} />
}
