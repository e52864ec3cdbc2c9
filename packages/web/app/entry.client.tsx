import { DEFAULT_LOCALE, isLocale } from '@cumulus/protocol'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { createI18n } from './i18n/i18n'
import { loadLocaleMessages } from './i18n/messages'
import { installChunkReloadRedirect, redirectAfterChunkReload } from './navigation/chunk-reload'
import { browserReloadDeps, reloadApp } from './navigation/reload-guard'

// Vite reports a failed preload of a lazily loaded chunk here (a deploy replaced it): reload
// the page, at most once per 10 s (spec 2 and 4). Only then is the error swallowed; when the
// guard holds, the import fails as usual and the caller shows its error.
let reloading = false
window.addEventListener('vite:preloadError', (event) => {
  if (!reloadApp(browserReloadDeps(), window.location.pathname + window.location.search)) return
  reloading = true
  event.preventDefault()
})
// Route modules that fail to load during navigation: see navigation/chunk-reload.ts.
installChunkReloadRedirect()

async function hydrate() {
  if (redirectAfterChunkReload()) return
  // The server rendered <html lang> from the path; only that locale's chunk is downloaded.
  const lang = document.documentElement.lang
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE
  let messages
  try {
    messages = await loadLocaleMessages(locale)
  } catch (error) {
    // Without its texts the app cannot start; the page stays as the server rendered it, still
    // readable and with working links. During the reload above there is nothing to say.
    if (!reloading) console.warn('Cumulus: this page’s texts failed to load, so it stays as the server rendered it.', error)
    return
  }
  const i18n = createI18n(locale, { [locale]: messages })
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <HydratedRouter />
        </I18nextProvider>
      </StrictMode>,
    )
  })
}

void hydrate()
