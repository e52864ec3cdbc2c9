import fc from 'fast-check'

/**
 * Addresses a server-side fetch must never reach unless the operator says so, and the many ways
 * to spell them in a URL, for SSRF tests (the offline download's address policy).
 *
 * The blocks are written out here independently of the code under test, from IANA's
 * special-purpose registries, so a block dropped from the code fails the properties.
 */

/** IPv4 blocks that are not public: [network, prefix length]. */
const IPV4_BLOCKS: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]

const ipv4Number = (dotted: string) => dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0)
export const dottedIpv4 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.')

/** The addresses attackers reach for first, then any address of any non-public block. */
export const privateIpv4Number: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom('127.0.0.1', '127.0.0.2', '169.254.169.254', '0.0.0.0', '10.0.0.1', '100.64.0.1', '172.16.0.1', '192.168.0.1', '255.255.255.255', '224.0.0.1').map(ipv4Number),
  fc.constantFrom(...IPV4_BLOCKS).chain(([network, prefix]) => fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((host) => ipv4Number(network) + host)),
)
export const privateIpv4: fc.Arbitrary<string> = privateIpv4Number.map(dottedIpv4)

const group = fc.integer({ min: 0, max: 0xffff })
const groups = (count: number) => fc.array(group, { minLength: count, maxLength: count })
const hex = (n: number) => n.toString(16)
const v4Groups = (n: number) => [hex(n >>> 16), hex(n & 0xffff)]

/** IPv6 addresses that are not public, as full (uncompressed) text. */
export const privateIpv6: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', '64:ff9b::a9fe:a9fe'),
  // link-local fe80::/10, unique local fc00::/7, site-local fec0::/10, multicast ff00::/8
  fc.tuple(fc.constantFrom([0xfe80, 0x3f], [0xfc00, 0x1ff], [0xfec0, 0x3f], [0xff00, 0xff]), group, groups(7)).map(([[base, mask], low, rest]) => [hex(base | (low & mask)), ...rest.map(hex)].join(':')),
  // IPv4-mapped, NAT64 and 6to4 around a non-public IPv4 address
  privateIpv4Number.map((n) => `0:0:0:0:0:ffff:${v4Groups(n).join(':')}`),
  privateIpv4Number.map((n) => `64:ff9b:0:0:0:0:${v4Groups(n).join(':')}`),
  fc.tuple(privateIpv4Number, groups(5)).map(([n, rest]) => ['2002', ...v4Groups(n), ...rest.map(hex)].join(':')),
  // Teredo 2001::/32, documentation 2001:db8::/32, IPv4-compatible ::/96
  fc.tuple(fc.constantFrom('2001:0', '2001:db8'), groups(6)).map(([prefix, rest]) => [prefix, ...rest.map(hex)].join(':')),
  fc.tuple(group, group).map(([a, b]) => `0:0:0:0:0:0:${hex(a)}:${hex(b)}`),
)

/** Public addresses, in the forms a resolver returns them, that a policy must let through. */
export const publicAddresses: readonly string[] = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '151.101.1.69', '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']

type Radix = 'dec' | 'oct' | 'hex' | 'HEX'
const radix = fc.constantFrom<Radix>('dec', 'oct', 'hex', 'HEX')
const zeros = fc.integer({ min: 0, max: 3 }).map((n) => '0'.repeat(n))

function part(value: number, base: Radix, pad: string): string {
  if (base === 'dec') return String(value)
  if (base === 'oct') return `0${pad}${value.toString(8)}`
  const digits = `${pad}${value.toString(16)}`
  return base === 'hex' ? `0x${digits}` : `0X${digits.toUpperCase()}`
}

/**
 * Every spelling the URL standard's IPv4 parser reads as `n`: one to four parts (the last part
 * fills the remaining bytes: 127.1, 127.0.1, 2130706433), each in decimal, octal or hex with
 * leading zeros, an optional trailing dot, and then possibly fullwidth digits or one
 * percent-encoded character (both decoded before host parsing).
 */
export function ipv4Spellings(n: number): fc.Arbitrary<string> {
  const bytes = [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff] as const
  const layouts: number[][] = [[...bytes], [bytes[0], bytes[1], bytes[2] * 256 + bytes[3]], [bytes[0], n % 2 ** 24], [n]]
  return fc
    .tuple(fc.constantFrom(...layouts), fc.array(fc.tuple(radix, zeros), { minLength: 4, maxLength: 4 }), fc.boolean(), fc.constantFrom('plain', 'fullwidth', 'percent'), fc.nat())
    .map(([layout, bases, trailingDot, disguise, at]) => {
      const text = layout.map((value, i) => part(value, bases[i]?.[0] ?? 'dec', bases[i]?.[1] ?? '')).join('.') + (trailingDot ? '.' : '')
      if (disguise === 'fullwidth') return text.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))
      if (disguise === 'percent') {
        const i = at % text.length
        return `${text.slice(0, i)}%${text.charCodeAt(i).toString(16).padStart(2, '0')}${text.slice(i + 1)}`
      }
      return text
    })
}

/** An IPv6 literal for a URL, bracketed: as given, upper-cased, with padded groups, or compressed by the parser. */
export function ipv6Spellings(address: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    `[${address}]`,
    `[${address.toUpperCase()}]`,
    `[${address
      .split(':')
      .map((g) => (g === '' ? g : g.padStart(4, '0')))
      .join(':')}]`,
  )
}

/** A URL whose host spells a non-public address, with scheme case, userinfo, port and path varied. */
export const hostileAddressUrl: fc.Arbitrary<string> = fc
  .record({
    scheme: fc.constantFrom('http', 'https', 'HTTP', 'HtTpS'),
    userinfo: fc.constantFrom('', 'user@', 'user:pass@', ':@', 'example.com@', 'a%40b:c@'),
    host: fc.oneof(privateIpv4Number.chain(ipv4Spellings), privateIpv6.chain(ipv6Spellings)),
    port: fc.constantFrom('', ':80', ':443', ':8080', ':65535'),
    path: fc.constantFrom('', '/', '/latest/meta-data/iam/security-credentials/', '/a?b=c#d', '/..%2f..%2f'),
  })
  .map(({ scheme, userinfo, host, port, path }) => `${scheme}://${userinfo}${host}${port}${path}`)
