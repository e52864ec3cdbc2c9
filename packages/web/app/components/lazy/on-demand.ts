import { type ComponentType, lazy, type LazyExoticComponent, useEffect, useState } from 'react'

/**
 * A module the first page load does not need (a dialog, a menu, a long table): its chunk is
 * fetched on the first `load()`, shared by every later caller, and fetched again after a
 * failure (offline, a new deploy).
 */
export interface OnDemand<T> {
  load(): Promise<T>
  /** The module once it has arrived, else undefined. */
  readonly value: T | undefined
}

export function onDemand<T>(importer: () => Promise<T>): OnDemand<T> {
  let promise: Promise<T> | undefined
  let value: T | undefined
  return {
    load() {
      promise ??= importer().then(
        (module) => {
          // A chunk whose preload failed while the page reloads resolves to nothing.
          if (!module) throw new Error('a lazily loaded chunk failed to load')
          value = module
          return module
        },
        (error: unknown) => {
          promise = undefined
          throw error
        },
      )
      return promise
    },
    get value() {
      return value
    },
  }
}

/**
 * The module once `wanted` has been true and its chunk has arrived (loading it then), else
 * undefined. `onError` hears a failed load; setting `wanted` again retries.
 */
export function useOnDemand<T>(module: OnDemand<T>, wanted: boolean, onError?: (error: unknown) => void): T | undefined {
  const [, setArrived] = useState(0)
  useEffect(() => {
    if (!wanted || module.value) return
    let live = true
    module.load().then(
      () => live && setArrived((n) => n + 1),
      (error: unknown) => live && onError?.(error),
    )
    return () => {
      live = false
    }
    // onError is read when the load settles: a new function each render must not restart it.
  }, [module, wanted])
  return wanted ? module.value : undefined
}

/**
 * `React.lazy` over an on-demand module. When the module has already arrived (loaded ahead of
 * the UI that shows it), the component renders at once instead of showing its Suspense
 * fallback for a moment: React reads a thenable that settles synchronously as settled.
 */
export function lazyFrom<M, P extends object>(module: OnDemand<M>, pick: (loaded: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const loaded = module.value
    if (!loaded) return module.load().then((arrived) => ({ default: pick(arrived) }))
    const settled: PromiseLike<{ default: ComponentType<P> }> = {
      then: (onFulfilled) => {
        const value = { default: pick(loaded) }
        return Promise.resolve(onFulfilled ? onFulfilled(value) : (value as never))
      },
    }
    return settled as Promise<{ default: ComponentType<P> }>
  })
}
