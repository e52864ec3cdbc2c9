import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

/** A chunk group's test: the app's source files at these paths (under packages/web/app). */
function appFiles(...paths: string[]): (id: string) => boolean {
  const suffixes = paths.map((path) => `/packages/web/app/${path}`)
  return (id) => {
    const file = id.replace(/\\/g, '/')
    return suffixes.some((suffix) => file.endsWith(suffix))
  }
}

/**
 * How the browser build groups modules into chunks. Every JavaScript file a first visit loads
 * is a request and a separately compressed body, so the code every page needs comes in few
 * files. Route modules stay separate entries (React Router loads them per route), and modules
 * loaded on demand (dialogs, menus, tabs, forms of closed tabs, the SDK, other locales' texts)
 * stay out: a group takes the static imports of what it matches, never the dynamic ones.
 */
function clientChunks(): Plugin {
  return {
    name: 'cumulus:client-chunks',
    configEnvironment(name) {
      if (name !== 'client') return
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  // React, React DOM, React Router and i18next: what every page runs.
                  { name: 'framework', priority: 4, test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next)[\\/]/ },
                  // The default layout with everything it imports (header, footer, switchers, session,
                  // i18n, navigation, colour mode), what the root route and the client entry add, and
                  // the UI most pages use. The root route itself stays apart with the stylesheet: a
                  // chunk that lazily loaded code imports must not carry it (React Router would then
                  // mark the stylesheet as dynamic CSS and Vite would link it a second time).
                  {
                    name: 'shell',
                    priority: 3,
                    test: appFiles(
                      'layouts/default.tsx',
                      'components/error-page.tsx',
                      'navigation/chunk-reload.ts',
                      'navigation/reload-guard.ts',
                      'components/page-title.tsx',
                      'components/ui/button.tsx',
                      'components/ui/spinner.tsx',
                    ),
                  },
                  // What the sign-in page shares with the other account pages: form parts.
                  {
                    name: 'account',
                    priority: 1,
                    test: appFiles(
                      'forms/patterns.ts',
                      'navigation/safe-navigation.ts',
                      'components/ui/card.tsx',
                      'components/ui/password-field.tsx',
                      'components/auth/auth-shell.tsx',
                      'components/auth/tab-styles.ts',
                      'components/auth/use-form-attempt.ts',
                      'components/auth/use-identity-call.ts',
                    ),
                  },
                  // What the pages behind sign-in (the drive, the account pages) share with the sign-in
                  // page: the auth middleware, alerts and text fields. Apart from the group above (and
                  // ahead of it, as the password field imports the text field), so /drive does not
                  // download the sign-in forms.
                  {
                    name: 'signed-in',
                    priority: 2,
                    test: appFiles('middleware/auth.ts', 'components/ui/alert.tsx', 'components/ui/text-field.tsx'),
                  },
                ],
              },
            },
          },
        },
      }
    },
  }
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), clientChunks()],
  build: {
    // The server bundle is loaded by packages/web/src/index.ts; the browser gets hashed assets.
    assetsInlineLimit: 0,
  },
})
