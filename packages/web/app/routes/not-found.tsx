import { data, useLocation, type LoaderFunctionArgs, type MetaFunction } from 'react-router'
import { ErrorPage } from '../components/error-page'

// Renders inside the default layout (header and footer stay) with HTTP status 404.
export function loader({ request }: LoaderFunctionArgs) {
  return data({ path: new URL(request.url).pathname }, { status: 404 })
}

export const meta: MetaFunction = () => [{ title: '404 · Cumulus' }, { name: 'robots', content: 'noindex' }]

export default function NotFound() {
  return <ErrorPage status={404} path={useLocation().pathname} />
}
