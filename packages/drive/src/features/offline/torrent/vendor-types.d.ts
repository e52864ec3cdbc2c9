// Types for the two WebTorrent parsing libraries we use (they ship JavaScript only). Only what
// this folder reads is declared.

declare module 'magnet-uri' {
  export interface MagnetUri {
    infoHash?: string
    name?: string | string[]
    announce?: string[]
    so?: number[]
  }
  /** Parses a magnet URI; unknown or malformed parameters are skipped, `%` errors throw. */
  export default function magnet(uri: string): MagnetUri
}

declare module 'parse-torrent' {
  /** The bencoded info dictionary as decoded: byte strings are Uint8Array, integers numbers. */
  export type BencodeValue = number | Uint8Array | BencodeValue[] | { [key: string]: BencodeValue }

  export interface ParsedTorrent {
    infoHash: string
    name: string
    info: { [key: string]: BencodeValue }
    announce: string[]
    urlList: string[]
    length: number
    pieceLength: number
    files: { path: string; name: string; length: number; offset: number }[]
    private?: boolean
  }
  /** Parses .torrent bytes (or a magnet URI, then without `info`); throws on a bad torrent. */
  export default function parseTorrent(torrentId: Uint8Array | string): Promise<ParsedTorrent>
  /** Encodes a parsed torrent back into a .torrent file (info, announce-list, url-list). */
  export function toTorrentFile(parsed: Pick<ParsedTorrent, 'info' | 'announce' | 'urlList'> & { private?: boolean }): Uint8Array
}
