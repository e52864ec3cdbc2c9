import { Links, Meta, Outlet, Scripts } from 'react-router'

// The document shell every framework-mode app needs: <Meta>, <Links> and <Scripts> (hydration).
// React Router's default entry.server (renderToPipeableStream) and entry.client are used.
export function Layout({ children }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        {/* No icon request: the browser would ask for /favicon.ico, which this app does not have. */}
        <link rel="icon" href="data:," />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}
