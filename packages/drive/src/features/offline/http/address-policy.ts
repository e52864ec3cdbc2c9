import { BlockList, isIP } from 'node:net'

/**
 * Which addresses an offline download may connect to. A user hands the server a URL and the
 * server fetches it from inside the operator's network, so without this a download of
 * http://169.254.169.254/ reads the cloud metadata service and http://127.0.0.1:5432/ probes
 * the database (SSRF). Only public unicast addresses are allowed, plus the private ranges the
 * operator lists (a LAN, or the tests' servers on 127.0.0.1).
 *
 * The classifier works on the address a connection would really use: a literal as the WHATWG
 * URL parser normalised it (it already turns 0x7f000001, 0177.0.0.1, 127.1 and 2130706433 into
 * 127.0.0.1) or what dns.lookup returned. IPv6 forms that carry an IPv4 address (mapped,
 * NAT64, 6to4) are judged by that IPv4 address.
 */

export type AddressCategory =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'carrier_nat'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'unique_local'
  | 'site_local'
  | 'teredo'
  | 'protocol_assignment'
  /** Not an IP address at all: never connected to. */
  | 'invalid'

type Rule<T> = readonly [network: T, prefixLength: number, category: Exclude<AddressCategory, 'public'> | 'embedded_ipv4']

/**
 * IANA's IPv4 special-purpose registry (RFC 6890 and successors), less the few entries that
 * are globally reachable but never serve downloads either way. First match wins, so the
 * broadcast address comes before the reserved block that contains it.
 */
const IPV4_RULES: readonly Rule<number>[] = (
  [
    ['0.0.0.0', 8, 'unspecified'], // "this network"; Linux connects 0.0.0.0 to the local host
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'carrier_nat'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link_local'], // includes 169.254.169.254, the cloud metadata service
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'protocol_assignment'],
    ['192.0.2.0', 24, 'documentation'],
    ['192.88.99.0', 24, 'reserved'], // the deprecated 6to4 relay anycast (RFC 7526)
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'benchmarking'],
    ['198.51.100.0', 24, 'documentation'],
    ['203.0.113.0', 24, 'documentation'],
    ['224.0.0.0', 4, 'multicast'],
    ['255.255.255.255', 32, 'broadcast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([network, prefix, category]) => [ipv4Number(network) as number, prefix, category] as const)

/**
 * IPv6: the special-purpose registry, then anything outside 2000::/3 (the only block IANA
 * allocates global unicast from) is reserved. `embedded_ipv4` forms are judged by the IPv4
 * address inside them (see embeddedIpv4).
 */
const IPV6_RULES: readonly Rule<bigint>[] = (
  [
    ['::', 128, 'unspecified'],
    ['::1', 128, 'loopback'],
    ['::ffff:0:0', 96, 'embedded_ipv4'], // IPv4-mapped: a dual-stack socket connects to the IPv4 address
    ['::ffff:0:0:0', 96, 'embedded_ipv4'], // IPv4-translated (SIIT, RFC 6145)
    ['::', 96, 'reserved'], // IPv4-compatible, deprecated by RFC 4291: nothing legitimate uses it
    ['64:ff9b::', 96, 'embedded_ipv4'], // NAT64 well-known prefix: DNS64 networks use it for every IPv4 host
    ['64:ff9b:1::', 48, 'reserved'], // local-use NAT64 (RFC 8215)
    ['100::', 64, 'reserved'], // discard-only
    ['2001::', 32, 'teredo'], // its client address is obfuscated and its relays are anyone's
    ['2001:db8::', 32, 'documentation'],
    ['2001::', 23, 'protocol_assignment'], // benchmarking 2001:2::/48, ORCHID, AMT, …
    ['2002::', 16, 'embedded_ipv4'], // 6to4: the relay sends it to the IPv4 address in bits 16..48
    ['3fff::', 20, 'documentation'],
    ['fc00::', 7, 'unique_local'],
    ['fe80::', 10, 'link_local'],
    ['fec0::', 10, 'site_local'],
    ['ff00::', 8, 'multicast'],
  ] as const
).map(([network, prefix, category]) => [ipv6Number(network) as bigint, prefix, category] as const)

const GLOBAL_UNICAST_V6 = ipv6Number('2000::') as bigint
const GLOBAL_UNICAST_V6_PREFIX = 3

/** Drops an IPv6 zone ("fe80::1%eth0"): the scope does not change which block an address is in. */
function withoutZone(address: string): string {
  const percent = address.indexOf('%')
  return percent === -1 ? address : address.slice(0, percent)
}

function ipv4Number(address: string): number | null {
  if (isIP(address) !== 4) return null
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0)
}

/** A 128-bit number from any IPv6 text form net.isIP accepts (compressed, with a dotted tail). */
function ipv6Number(address: string): bigint | null {
  if (isIP(address) !== 6) return null
  let text = withoutZone(address)
  const lastColon = text.lastIndexOf(':')
  const tail = text.slice(lastColon + 1)
  if (tail.includes('.')) {
    const v4 = ipv4Number(tail)
    if (v4 === null) return null
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined]
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'))
  const left = groupsOf(head)
  const right = rest === undefined ? [] : groupsOf(rest)
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  if (groups.length !== 8) return null
  return groups.reduce((n, group) => (n << 16n) | BigInt(Number.parseInt(group, 16)), 0n)
}

function inBlock<T extends number | bigint>(value: T, network: T, prefix: number, bits: number): boolean {
  if (typeof value === 'bigint') {
    const shift = BigInt(bits - prefix)
    return value >> shift === (network as bigint) >> shift
  }
  // 32-bit values: divide instead of shifting, which JavaScript does on signed 32-bit integers.
  const size = 2 ** (bits - prefix)
  return Math.floor(value / size) === Math.floor((network as number) / size)
}

function ipv4Text(n: number): string {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.')
}

/** The IPv4 address an IPv6 address stands for (mapped, translated, NAT64, 6to4), or null. */
export function embeddedIpv4(address: string): string | null {
  const n = ipv6Number(address)
  if (n === null) return null
  for (const [network, prefix, category] of IPV6_RULES) {
    if (category !== 'embedded_ipv4' || !inBlock(n, network, prefix, 128)) continue
    // 6to4 carries its IPv4 address right after the 16-bit prefix; the others in the last 32 bits.
    const bits = prefix === 16 ? (n >> 80n) & 0xffffffffn : n & 0xffffffffn
    return ipv4Text(Number(bits))
  }
  return null
}

/** What kind of address `address` (IPv4 or IPv6 text, as dns.lookup or a normalised URL gives it) is. */
export function addressCategory(address: string): AddressCategory {
  const v4 = ipv4Number(address)
  if (v4 !== null) {
    for (const [network, prefix, category] of IPV4_RULES) if (inBlock(v4, network, prefix, 32)) return category as AddressCategory
    return 'public'
  }
  const v6 = ipv6Number(address)
  if (v6 === null) return 'invalid'
  for (const [network, prefix, category] of IPV6_RULES) {
    if (!inBlock(v6, network, prefix, 128)) continue
    return category === 'embedded_ipv4' ? addressCategory(embeddedIpv4(address) as string) : category
  }
  return inBlock(v6, GLOBAL_UNICAST_V6, GLOBAL_UNICAST_V6_PREFIX, 128) ? 'public' : 'reserved'
}

/** Whether `address` is a public unicast address anyone on the internet could reach. */
export function isPublicAddress(address: string): boolean {
  return addressCategory(address) === 'public'
}

/** What the operator configures: private ranges downloads may reach anyway. */
export interface NetPolicy {
  /** CIDR ranges ("192.168.1.0/24", "fd00::/8", "127.0.0.1/32"); empty for public addresses only. */
  allowedPrivateRanges: readonly string[]
}

/** A NetPolicy checked and compiled once. */
export interface AddressPolicy {
  /** Whether a connection to `address` (a resolved or literal IP) is allowed. False for anything that is not an IP. */
  isAllowed(address: string): boolean
}

/** A range in the operator's allow-list that is not a CIDR range. */
export class InvalidAllowedRange extends Error {
  override readonly name = 'InvalidAllowedRange'
  constructor(readonly range: string) {
    super(`"${range}" is not an IP range: write a CIDR range such as 192.168.1.0/24 or fd00::/8, or a single address such as 127.0.0.1`)
  }
}

/** Parses one CIDR range (or a single address, meaning /32 or /128). Throws InvalidAllowedRange. */
function parseRange(range: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [network = '', prefixText, extra] = range.split('/')
  const version = isIP(network)
  // A zone names an interface, not a range; BlockList would silently never match it.
  if (version === 0 || network.includes('%') || extra !== undefined) throw new InvalidAllowedRange(range)
  const bits = version === 4 ? 32 : 128
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) throw new InvalidAllowedRange(range)
  const prefix = prefixText === undefined ? bits : Number(prefixText)
  if (prefix > bits) throw new InvalidAllowedRange(range)
  return { network, prefix, family: version === 4 ? 'ipv4' : 'ipv6' }
}

/**
 * Parses the operator's comma-separated allow-list ("127.0.0.0/8, ::1/128"): blanks are
 * ignored, a bare address means just that address. Throws InvalidAllowedRange naming the first
 * bad entry, so configuration loading can report it.
 */
export function parseAllowedRanges(value: string): string[] {
  const ranges = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
  for (const range of ranges) parseRange(range)
  return ranges
}

/** Compiles `policy`. Throws InvalidAllowedRange when a range is not CIDR. */
export function createAddressPolicy(policy: NetPolicy): AddressPolicy {
  const allowed = new BlockList()
  for (const range of policy.allowedPrivateRanges) {
    const { network, prefix, family } = parseRange(range)
    allowed.addSubnet(network, prefix, family)
  }
  const inAllowList = (address: string): boolean => {
    const version = isIP(address)
    return version !== 0 && allowed.check(address, version === 4 ? 'ipv4' : 'ipv6')
  }
  return {
    isAllowed(address) {
      const category = addressCategory(address)
      if (category === 'public') return true
      if (category === 'invalid') return false
      const bare = withoutZone(address)
      const inner = embeddedIpv4(bare)
      return inAllowList(bare) || (inner !== null && inAllowList(inner))
    },
  }
}
