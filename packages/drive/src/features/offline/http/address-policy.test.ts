import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addressCategory, createAddressPolicy, embeddedIpv4, InvalidAllowedRange, isPublicAddress, parseAllowedRanges } from './address-policy.js'
import { privateIpv4, privateIpv6, publicAddresses } from '../../../../../../test-support/hostile-addresses.js'

describe('addressCategory', () => {
  it('names every special-purpose block, and judges IPv6 that carries IPv4 by the IPv4 inside', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link_local'],
      ['100.64.0.1', 'carrier_nat'],
      ['100.127.255.255', 'carrier_nat'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['198.18.0.1', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['192.0.0.8', 'protocol_assignment'],
      ['192.88.99.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link_local'],
      ['fe80::1%eth0', 'link_local'],
      ['febf:ffff::1', 'link_local'],
      ['fec0::1', 'site_local'],
      ['fc00::1', 'unique_local'],
      ['fd12:3456::1', 'unique_local'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:169.254.169.254', 'link_local'],
      ['::ffff:0:a00:1', 'private'],
      ['::127.0.0.1', 'reserved'],
      ['::8.8.8.8', 'reserved'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b:1::1', 'reserved'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:a9fe:a9fe::1', 'link_local'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
      ['2001:2::1', 'protocol_assignment'],
      ['2001:db8::1', 'documentation'],
      ['3fff::1', 'documentation'],
      ['100::1', 'reserved'],
      ['5f00::1', 'reserved'],
      ['4000::1', 'reserved'],
      ['localhost', 'invalid'],
      ['0x7f000001', 'invalid'],
      ['127.1', 'invalid'],
      ['', 'invalid'],
    ]
    for (const [address, category] of cases) expect(addressCategory(address), address).toBe(category)
  })

  it('calls ordinary internet addresses public, including IPv6 forms of public IPv4', () => {
    for (const address of publicAddresses) expect(addressCategory(address), address).toBe('public')
    // The edges of the private blocks are public on the other side.
    for (const address of ['9.255.255.255', '11.0.0.0', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '169.253.255.255', '223.255.255.255']) {
      expect(isPublicAddress(address), address).toBe(true)
    }
  })

  it('finds the IPv4 address inside mapped, NAT64 and 6to4 addresses', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1')
    expect(embeddedIpv4('64:ff9b::a9fe:a9fe')).toBe('169.254.169.254')
    expect(embeddedIpv4('2002:c0a8:101::1')).toBe('192.168.1.1')
    expect(embeddedIpv4('2606:4700::1111')).toBeNull()
    expect(embeddedIpv4('127.0.0.1')).toBeNull()
  })

  it('never calls an address inside a non-public block public', () => {
    fc.assert(fc.property(fc.oneof(privateIpv4, privateIpv6), (address) => !isPublicAddress(address)))
  })
})

describe('parseAllowedRanges', () => {
  it('reads a comma-separated list, ignoring blanks, with bare addresses as single hosts', () => {
    expect(parseAllowedRanges(' 127.0.0.0/8, ::1/128 ,,192.168.1.10,fd00::/8 ')).toEqual(['127.0.0.0/8', '::1/128', '192.168.1.10', 'fd00::/8'])
    expect(parseAllowedRanges('')).toEqual([])
  })

  it('names the first entry that is not a range', () => {
    for (const bad of ['localhost', '10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1', '10.0.0.0/0x8', 'fe80::/10%eth0', 'fe80::1%eth0/128', '10.0.0/8', '*']) {
      expect(() => parseAllowedRanges(`127.0.0.0/8,${bad}`), bad).toThrow(new InvalidAllowedRange(bad))
    }
    expect(() => createAddressPolicy({ allowedPrivateRanges: ['nope'] })).toThrow(InvalidAllowedRange)
  })
})

describe('createAddressPolicy', () => {
  it('allows public addresses and refuses every private one by default', () => {
    const policy = createAddressPolicy({ allowedPrivateRanges: [] })
    for (const address of publicAddresses) expect(policy.isAllowed(address), address).toBe(true)
    fc.assert(fc.property(fc.oneof(privateIpv4, privateIpv6), (address) => !policy.isAllowed(address)))
    expect(policy.isAllowed('not an address')).toBe(false)
  })

  it('lets the operator open exactly the ranges listed, in every IPv6 form of them', () => {
    const policy = createAddressPolicy({ allowedPrivateRanges: ['127.0.0.1/32', '192.168.1.0/24', 'fd00:1::/32'] })
    expect(['127.0.0.1', '::ffff:127.0.0.1', '64:ff9b::7f00:1', '192.168.1.77', 'fd00:1::5'].map((a) => policy.isAllowed(a))).toEqual([true, true, true, true, true])
    expect(['127.0.0.2', '::1', '192.168.2.1', '169.254.169.254', 'fd00:2::1', '0.0.0.0'].map((a) => policy.isAllowed(a))).toEqual([false, false, false, false, false, false])
  })
})
