import type { Locale } from '@cumulus/protocol'
import type { Messages } from '../locales/shape'

/**
 * One lazily loaded chunk per locale: the browser downloads only the active locale's tables
 * (the "only the active locale's messages reach the browser"); the server loads them
 * all once.
 */
const loaders: Record<Locale, () => Promise<{ default: Messages }>> = {
  'en-US': () => import('../locales/en-US/index'),
  id: () => import('../locales/id/index'),
  ko: () => import('../locales/ko/index'),
  ms: () => import('../locales/ms/index'),
  'zh-CN': () => import('../locales/zh-CN/index'),
  'zh-TW': () => import('../locales/zh-TW/index'),
}

/** A promise React's `use()` can read without suspending once it has settled. */
type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown }

const cache = new Map<Locale, TrackedPromise<Messages>>()

/** Loads a locale's tables once; later calls return the same (settled) promise. */
export function loadLocaleMessages(locale: Locale): TrackedPromise<Messages> {
  let promise = cache.get(locale)
  if (!promise) {
    promise = loaders[locale]().then((module) => {
      // A chunk whose preload failed while a reload was under way resolves to nothing.
      if (!module?.default) throw new Error(`The ${locale} messages failed to load`)
      return module.default
    }) as TrackedPromise<Messages>
    promise.status = 'pending'
    promise.then(
      (value) => Object.assign(promise!, { status: 'fulfilled', value }),
      (reason: unknown) => {
        Object.assign(promise!, { status: 'rejected', reason })
        // A failed chunk (offline, new deploy) may be retried by a later call.
        cache.delete(locale)
      },
    )
    cache.set(locale, promise)
  }
  return promise
}

/** The tables of a locale already loaded, else undefined. */
export function loadedLocaleMessages(locale: Locale): Messages | undefined {
  const promise = cache.get(locale)
  return promise?.status === 'fulfilled' ? promise.value : undefined
}
