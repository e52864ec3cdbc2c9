import { describe, expect, it } from 'vitest'
import { type ContentCoding, negotiateEncoding, type VariantCoding } from './accept-encoding.js'

const both: VariantCoding[] = ['br', 'gzip']

describe('negotiateEncoding', () => {
  it.each<[string | undefined, VariantCoding[], ContentCoding]>([
    // What browsers send
    ['gzip, deflate, br, zstd', both, 'br'],
    ['gzip, deflate', both, 'gzip'],
    // The client's weights win over the server's order; ties go to br, then gzip, then identity
    ['br;q=0.5, gzip;q=0.8', both, 'gzip'],
    ['br;q=0.8, gzip;q=0.8', both, 'br'],
    ['gzip;q=1.000, br;q=0.999', both, 'gzip'],
    ['gzip, identity', both, 'gzip'],
    ['gzip;q=0.5, identity', both, 'identity'],
    // q=0 refuses
    ['br;q=0, gzip', both, 'gzip'],
    ['br;q=0, gzip;q=0', both, 'identity'],
    ['gzip;Q=0.0, br;q=0.00', both, 'identity'],
    // The wildcard weighs what is not named
    ['*', both, 'br'],
    ['br;q=0, *', both, 'gzip'],
    ['*;q=0, identity', both, 'identity'],
    ['*;q=0.5, identity;q=0.1', both, 'br'],
    // identity only, or nothing
    ['identity', both, 'identity'],
    ['', both, 'identity'],
    [undefined, both, 'identity'],
    ['deflate, zstd', both, 'identity'],
    // Refusing everything, identity included: the header is disregarded, never an error
    ['*;q=0', both, 'identity'],
    ['br;q=0, gzip;q=0, identity;q=0', both, 'identity'],
    // Missing variants fall back
    ['br', ['gzip'], 'identity'],
    ['br, gzip', ['gzip'], 'gzip'],
    ['br, gzip', [], 'identity'],
    // Spelling: case, spaces, the x-gzip alias
    ['  BR ; q=0.9 ,GZIP', both, 'gzip'],
    ['x-gzip', both, 'gzip'],
    // A malformed weight drops its entry, never selects it
    ['br;q=2, gzip', both, 'gzip'],
    ['br;q=abc', both, 'identity'],
    ['br;q=0.1234, gzip;q=0.1', both, 'gzip'],
    ['br;q=, gzip;q=0.1', both, 'gzip'],
    [';;,,;q=1', both, 'identity'],
  ])('%j with variants %j → %s', (header, available, expected) => {
    expect(negotiateEncoding(header, available)).toBe(expected)
  })
})
