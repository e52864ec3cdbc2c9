import type { FileCategory } from '@cumulus/protocol'

// The types a browser can preview or play, and the common archives and documents. Anything else
// is application/octet-stream: a download, never rendered by the browser.
const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.webm': 'video/webm', '.mkv': 'video/x-matroska', '.mov': 'video/quicktime',
  '.avi': 'video/x-msvideo', '.wmv': 'video/x-ms-wmv', '.flv': 'video/x-flv', '.ts': 'video/mp2t', '.m2ts': 'video/mp2t',
  '.mpg': 'video/mpeg', '.mpeg': 'video/mpeg', '.3gp': 'video/3gpp', '.ogv': 'video/ogg', '.rmvb': 'application/vnd.rn-realmedia-vbr',
  '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.aac': 'audio/aac', '.flac': 'audio/flac', '.wav': 'audio/wav', '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg', '.opus': 'audio/opus', '.wma': 'audio/x-ms-wma', '.ape': 'audio/ape',
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp', '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.avif': 'image/avif', '.heic': 'image/heic', '.tif': 'image/tiff', '.tiff': 'image/tiff',
  '.txt': 'text/plain', '.md': 'text/markdown', '.csv': 'text/csv', '.log': 'text/plain', '.json': 'application/json',
  '.xml': 'application/xml', '.html': 'text/html', '.htm': 'text/html', '.css': 'text/css', '.js': 'text/javascript',
  '.srt': 'application/x-subrip', '.vtt': 'text/vtt', '.ass': 'text/x-ssa', '.yaml': 'application/yaml', '.yml': 'application/yaml',
  '.ini': 'text/plain', '.conf': 'text/plain', '.sh': 'application/x-sh', '.py': 'text/x-python',
  '.pdf': 'application/pdf', '.doc': 'application/msword', '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel', '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint', '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.epub': 'application/epub+zip', '.apk': 'application/vnd.android.package-archive', '.torrent': 'application/x-bittorrent',
  '.zip': 'application/zip', '.rar': 'application/vnd.rar', '.7z': 'application/x-7z-compressed', '.tar': 'application/x-tar',
  '.gz': 'application/gzip', '.tgz': 'application/gzip', '.bz2': 'application/x-bzip2', '.xz': 'application/x-xz', '.zst': 'application/zstd',
}

const ARCHIVES = new Set(['.zip', '.rar', '.7z', '.tar', '.gz', '.tgz', '.bz2', '.xz', '.zst'])
const TEXT_TYPES = new Set(['application/json', 'application/xml', 'application/yaml', 'application/x-subrip', 'application/x-sh', 'application/pdf', 'application/msword', 'application/epub+zip'])

export function mimeTypeOf(extension: string): string {
  return TYPES[extension.toLowerCase()] ?? 'application/octet-stream'
}

export function categoryOf(extension: string, mimeType: string): FileCategory {
  if (mimeType.startsWith('video/') || mimeType === 'application/vnd.rn-realmedia-vbr') return 'VIDEO'
  if (mimeType.startsWith('audio/')) return 'AUDIO'
  if (mimeType.startsWith('image/')) return 'IMAGE'
  if (ARCHIVES.has(extension.toLowerCase())) return 'ARCHIVE'
  if (mimeType.startsWith('text/') || TEXT_TYPES.has(mimeType) || mimeType.includes('officedocument')) return 'TEXT'
  return 'OTHER'
}
