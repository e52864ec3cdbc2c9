import { sameOriginLocation } from '@cumulus/protocol'
import { redirect, type LoaderFunctionArgs } from 'react-router'
import { defaultLocaleRedirect } from '../i18n/locale-routing'

/**
 * `/en-US/...` -> the unprefixed path (the default locale has no prefix). The path is the
 * visitor's: `/en-US//evil.example` must not become a Location of `//evil.example`.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  return redirect(sameOriginLocation(defaultLocaleRedirect(url.pathname, url.search) ?? '/', url.origin), 301)
}

export default function DefaultLocaleRedirect() {
  return null
}
