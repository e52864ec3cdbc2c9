import { isIP } from 'node:net'
import type { AddressPolicy } from '../http/address-policy.js'
import { type Resolver, systemResolver } from '../http/safe-request.js'

/** Whether the engine may announce to a tracker URL a torrent or magnet names. */
export type TrackerCheck = (url: string) => Promise<boolean>

/** How long one tracker's host name may take to resolve before the tracker is left out. */
const RESOLVE_TIMEOUT_MS = 5_000

const TRACKER_SCHEMES = new Set(['http:', 'https:', 'udp:'])

/**
 * The host of a tracker URL, with every IPv4 spelling made dotted: udp:// is not a special
 * scheme, so the URL parser leaves its host as written (0x7f000001, 2130706433); parsed again as
 * an http host it is normalised like any web address. Null when the URL is not a tracker's.
 */
export function trackerHost(url: string): string | null {
  try {
    const parsed = new URL(url)
    if (!TRACKER_SCHEMES.has(parsed.protocol) || parsed.host === '') return null
    return new URL(`http://${parsed.host}`).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return null
  }
}

/**
 * A tracker may be announced to when it is http(s) or udp and its host is, or resolves only to,
 * addresses the policy allows. A torrent's trackers are the user's input: without this check,
 * one .torrent file makes the server send requests to 169.254.169.254 or a LAN service.
 *
 * The engine resolves the name again when it announces, so a name that changes its answer
 * between the two (DNS rebinding) is not covered; decision 022 records why that is accepted for
 * trackers (the request is a fixed announce GET, its answer never reaches the user).
 */
export function createTrackerCheck(addresses: AddressPolicy, resolve: Resolver = systemResolver): TrackerCheck {
  return async (url) => {
    const host = trackerHost(url)
    if (host === null) return false
    if (isIP(host) !== 0) return addresses.isAllowed(host)
    let timer: NodeJS.Timeout | undefined
    try {
      const found = await Promise.race([
        resolve(host),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS))),
      ])
      return found.length > 0 && found.every((entry) => addresses.isAllowed(entry.address))
    } catch {
      return false
    } finally {
      clearTimeout(timer)
    }
  }
}
