import type { AndroidHostBridge } from './android.js'

/** One analytics event as queued on `globalThis.__cumulusAnalytics`. */
export interface AnalyticsEvent {
  event: AnalyticsEventName
  params: Record<string, unknown>
  /** Epoch milliseconds. */
  time: number
}

export type AnalyticsEventName = 'sign_in' | 'sign_up' | 'sign_out' | 'refresh_failed' | 'captcha_shown'

declare global {
  // eslint-disable-next-line no-var
  var __cumulusAnalytics: AnalyticsEvent[] | undefined
}

/**
 * Pushes an event to the global queue (read by whichever analytics script the page
 * loads) and to the native host when there is one. Never throws: analytics must not
 * break a sign-in.
 */
export function trackEvent(event: AnalyticsEventName, params: Record<string, unknown>, host?: AndroidHostBridge | null): void {
  try {
    const queue = (globalThis.__cumulusAnalytics ||= [])
    queue.push({ event, params, time: Date.now() })
  } catch {
    // A page may have replaced the queue with something that is not an array.
  }
  try {
    host?.trackEvent?.(event, JSON.stringify(params))
  } catch {
    // The bridge belongs to the host app; its failures are not ours to surface.
  }
}
