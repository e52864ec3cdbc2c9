// The BitTorrent engine for offline download (decision 021). The job handler and the preview
// route import from here only.
export { Aria2TorrentEngine, createTorrentEngine, defaultTorrentEngineConfig, type TorrentEngineConfig } from './aria2-torrent-engine.js'
export { aria2InstallHint } from './aria2-daemon.js'
export {
  TorrentEngineError,
  everyByteFinished,
  type DownloadedFile,
  type FileProgress,
  type InspectOptions,
  type StartOptions,
  type TorrentDownload,
  type TorrentEngine,
  type TorrentEngineErrorCode,
  type TorrentFileEntry,
  type TorrentMeta,
  type TorrentProgress,
  type TorrentSource,
} from './torrent-engine.js'
export { parseMagnet, readTorrentMeta, type MagnetLink } from './torrent-source.js'
export { createTrackerCheck, trackerHost, type TrackerCheck } from './tracker-check.js'
