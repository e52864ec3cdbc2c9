/**
 * The links cloud download accepts (the thunder page): web addresses, magnet links and Thunder
 * links (`thunder://` + base64 of `AA<address>ZZ`) that wrap one of those. The server downloads
 * nothing else (drive.md: ed2k may be refused; FTP is not among the sources), so an FTP or eD2k
 * link is `unsupported` here, before anything is sent, as any other scheme is.
 */

export const DOWNLOAD_LINK_KINDS = ['http', 'https', 'magnet', 'thunder'] as const
export type DownloadLinkKind = (typeof DOWNLOAD_LINK_KINDS)[number]

export type DownloadLinkCheck =
  | { ok: true; kind: DownloadLinkKind; link: string }
  /** `empty`: nothing pasted; `unsupported`: another scheme; `invalid`: a known scheme, but malformed. */
  | { ok: false; reason: 'empty' | 'unsupported' | 'invalid' }

/** Longer than any real link; stops a pasted document from being kept as a "link". */
export const MAX_DOWNLOAD_LINK_LENGTH = 8192

/** Checks a pasted link. Surrounding whitespace is ignored; the kept link is the trimmed one. */
export function checkDownloadLink(input: string): DownloadLinkCheck {
  const link = input.trim()
  if (link === '') return { ok: false, reason: 'empty' }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1]?.toLowerCase()
  if (!scheme || !(DOWNLOAD_LINK_KINDS as readonly string[]).includes(scheme)) return { ok: false, reason: 'unsupported' }
  const kind = scheme as DownloadLinkKind
  if (link.length > MAX_DOWNLOAD_LINK_LENGTH || /\s/.test(link)) return { ok: false, reason: 'invalid' }
  const valid = kind === 'magnet' ? isMagnet(link) : kind === 'thunder' ? isThunder(link) : isNetworkUrl(link)
  return valid ? { ok: true, kind, link } : { ok: false, reason: 'invalid' }
}

/** An http or https URL with a host. */
function isNetworkUrl(link: string): boolean {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return false
  }
  return ['http:', 'https:'].includes(url.protocol) && url.hostname !== '' && /^[a-z]+:\/\//i.test(link)
}

/**
 * `magnet:?xt=urn:<namespace>:<hash>&...`: at least one exact topic. BitTorrent info hashes
 * (`btih`) are 40 hex or 32 base32 characters (v1), `btmh` a multihash (v2).
 */
function isMagnet(link: string): boolean {
  if (!/^magnet:\?/i.test(link)) return false
  const params = new URLSearchParams(link.slice(link.indexOf('?') + 1))
  const topics = params.getAll('xt')
  if (topics.length === 0) return false
  return topics.every((topic) => {
    const btih = /^urn:btih:(.+)$/i.exec(topic)?.[1]
    if (btih !== undefined) return /^[0-9a-f]{40}$/i.test(btih) || /^[a-z2-7]{32}$/i.test(btih)
    const btmh = /^urn:btmh:(.+)$/i.exec(topic)?.[1]
    if (btmh !== undefined) return /^[0-9a-f]{68}$/i.test(btmh)
    return /^urn:[a-z0-9][a-z0-9.-]*:\S+$/i.test(topic)
  })
}

/** `thunder://` + base64 of `AA<address>ZZ`, whose address is itself a supported link. */
function isThunder(link: string): boolean {
  const encoded = link.replace(/^thunder:\/\//i, '').replace(/\/$/, '')
  if (encoded === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return false
  let decoded: string
  try {
    decoded = atob(encoded)
  } catch {
    return false
  }
  const inner = /^AA([\s\S]*)ZZ$/.exec(decoded)?.[1]
  if (inner === undefined) return false
  const check = checkDownloadLink(decodeLatin1AsUtf8(inner))
  return check.ok && check.kind !== 'thunder'
}

/** atob gives one character per byte; addresses with non-ASCII names are UTF-8. */
function decodeLatin1AsUtf8(binary: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    return binary
  }
}
