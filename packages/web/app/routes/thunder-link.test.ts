import { describe, expect, it } from 'vitest'
import { checkDownloadLink, MAX_DOWNLOAD_LINK_LENGTH } from './thunder-link'

/** `thunder://` + base64 of `AA<address>ZZ`, as Thunder builds them. */
function thunderOf(address: string): string {
  return `thunder://${Buffer.from(`AA${address}ZZ`, 'utf8').toString('base64')}`
}

const HASH_HEX = 'c12fe1c06bba254a9dc9f519b335aa7c1367a88a'
const HASH_BASE32 = 'YEX6DQDLXISUVHOJ6UM3GNNKPQJWPKEK'

describe('checkDownloadLink', () => {
  it.each([
    ['https://cdn.example.org/files/movie.mp4', 'https'],
    ['http://example.org/a%20b.zip?token=1#x', 'http'],
    ['HTTPS://EXAMPLE.ORG/UPPER.ISO', 'https'],
    [`magnet:?xt=urn:btih:${HASH_HEX}&dn=ubuntu.iso&tr=udp%3A%2F%2Ftracker.example.org%3A1337`, 'magnet'],
    [`magnet:?xt=urn:btih:${HASH_BASE32}`, 'magnet'],
    [`magnet:?xt=urn:btmh:1220${'ab'.repeat(32)}`, 'magnet'],
    [thunderOf('http://example.org/file.zip'), 'thunder'],
    [thunderOf('https://example.org/电影.mkv'), 'thunder'],
  ] as const)('accepts %s as %s', (link, kind) => {
    expect(checkDownloadLink(link)).toEqual({ ok: true, kind, link })
  })

  it('trims surrounding whitespace and keeps the trimmed link', () => {
    expect(checkDownloadLink('  https://example.org/a.zip\n')).toEqual({ ok: true, kind: 'https', link: 'https://example.org/a.zip' })
  })

  it('asks for a link when nothing is pasted', () => {
    expect(checkDownloadLink('')).toEqual({ ok: false, reason: 'empty' })
    expect(checkDownloadLink(' \n\t ')).toEqual({ ok: false, reason: 'empty' })
  })

  // The server downloads neither FTP nor eD2k: they are refused here like any other scheme.
  it.each([
    'mailto:anna@example.org',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'sftp://example.org/a',
    'ftp://mirror.example.org/pub/debian.iso',
    'ftp://anna:secret@ftp.example.org/file.bin',
    'ed2k://|file|ubuntu-24.04.iso|6114656256|0123456789ABCDEF0123456789ABCDEF|/',
    'example.org/file.zip',
    'just some words',
  ])('refuses %s as unsupported', (link) => {
    expect(checkDownloadLink(link)).toEqual({ ok: false, reason: 'unsupported' })
  })

  it.each([
    ['https://', 'no host'],
    ['http:/example.org/a', 'a single slash'],
    ['https://exa mple.org/a', 'a space inside'],
    ['magnet:?dn=no-topic.iso', 'a magnet without a topic'],
    ['magnet:?xt=urn:btih:1234', 'a short info hash'],
    [`magnet:xt=urn:btih:${HASH_HEX}`, 'a magnet without ?'],
    ['thunder://', 'an empty Thunder link'],
    ['thunder://not*base64', 'Thunder text that is not base64'],
    [`thunder://${Buffer.from('http://example.org/a').toString('base64')}`, 'Thunder without the AA…ZZ wrapper'],
    [thunderOf('mailto:anna@example.org'), 'Thunder wrapping an unsupported link'],
    [thunderOf('ftp://example.org/电影.mkv'), 'Thunder wrapping an FTP link'],
    [thunderOf('ed2k://|file|a.txt|12|0123456789abcdef0123456789abcdef|/'), 'Thunder wrapping an eD2k link'],
    [thunderOf(thunderOf('http://example.org/a')), 'Thunder wrapping Thunder'],
    [`https://example.org/${'a'.repeat(MAX_DOWNLOAD_LINK_LENGTH)}`, 'a link longer than any real one'],
  ])('refuses %s as invalid (%s)', (link) => {
    expect(checkDownloadLink(link)).toEqual({ ok: false, reason: 'invalid' })
  })
})
