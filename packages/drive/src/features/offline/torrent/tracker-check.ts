import { isIP } from 'node:net'
import type { AddressPolicy } from '../http/address-policy.js'
import { type Resolver, systemResolver } from '../http/safe-request.js'

/**
 * Whether the engine may announce to a tracker URL a torrent or magnet names: the URL to give
 * the engine (as the URL parser wrote it back), or null.
 */
export type TrackerCheck = (url: string) => Promise<string | null>

/** How long one tracker's host name may take to resolve before the tracker is left out. */
const RESOLVE_TIMEOUT_MS = 5_000

const TRACKER_SCHEMES = new Set(['http:', 'https:', 'udp:'])

/**
 * The host of a tracker URL, with every IPv4 spelling made dotted: udp:// is not a special
 * scheme, so the URL parser leaves its host as written (0x7f000001, 2130706433); parsed again as
 * an http host it is normalised like any web address. Null when the URL is not a tracker's.
 */
export function trackerHost(url: string): string | null {
  return parseTracker(url)?.host ?? null
}

/**
 * The tracker URL as the engine will get it, and its host. Refused outright: a backslash,
 * whitespace or a control character (parsers disagree on them: WHATWG reads `\` as `/`, aria2
 * as part of the authority, so `http://1.1.1.1\@127.0.0.1/` would be checked as one host and
 * reached as another), and credentials. The engine gets `href`, the form that was checked.
 */
function parseTracker(url: string): { href: string; host: string } | null {
  if (/[\\\s\x00-\x1f\x7f]/.test(url)) return null
  try {
    const parsed = new URL(url)
    if (!TRACKER_SCHEMES.has(parsed.protocol) || parsed.host === '' || parsed.username !== '' || parsed.password !== '') return null
    return { href: parsed.href, host: new URL(`http://${parsed.host}`).hostname.replace(/^\[|\]$/g, '') }
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
    const tracker = parseTracker(url)
    if (tracker === null) return null
    const { host, href } = tracker
    if (isIP(host) !== 0) return addresses.isAllowed(host) ? href : null
    let timer: NodeJS.Timeout | undefined
    try {
      const found = await Promise.race([
        resolve(host),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS))),
      ])
      return found.length > 0 && found.every((entry) => addresses.isAllowed(entry.address)) ? href : null
    } catch {
      return null
    } finally {
      clearTimeout(timer)
    }
  }
}
