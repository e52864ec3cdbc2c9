import { redirect, type LoaderFunctionArgs } from 'react-router'
import { defaultLocaleRedirect } from '../i18n/locale-routing'

/** `/en-US/...` -> the unprefixed path (the default locale has no prefix). */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  return redirect(defaultLocaleRedirect(url.pathname, url.search) ?? '/', 301)
}

export default function DefaultLocaleRedirect() {
  return null
}
