// Types for the BitTorrent test libraries (they ship JavaScript only); only what
// torrent-swarm.ts uses.

declare module 'bittorrent-tracker' {
  import type { EventEmitter } from 'node:events'
  import type { Server as HttpServer } from 'node:http'

  export interface TrackerServerOptions {
    http?: boolean
    udp?: boolean
    ws?: boolean
    stats?: boolean
    interval?: number
    trustProxy?: boolean
  }
  export class Server extends EventEmitter {
    constructor(options?: TrackerServerOptions)
    http: HttpServer | null
    /** Swarms by hex info hash: `complete` counts seeders, `incomplete` leechers. */
    torrents: Record<string, { complete: number; incomplete: number } | undefined>
    listen(port: number, hostname: string, onListening?: () => void): void
    close(onClose?: () => void): void
  }
}

declare module 'create-torrent' {
  export interface CreateTorrentOptions {
    name?: string
    pieceLength?: number
    announceList?: string[][]
    createdBy?: string
    creationDate?: Date | number
    private?: boolean
    filterJunkFiles?: boolean
  }
  type Input = string | Buffer | (Buffer & { fullPath?: string; name?: string })
  export default function createTorrent(input: Input | Input[], options: CreateTorrentOptions, callback: (error: Error | null, torrent: Uint8Array) => void): void
}

declare module 'bencode' {
  const bencode: {
    encode(value: unknown): Uint8Array
    decode(data: Uint8Array): unknown
  }
  export default bencode
}
