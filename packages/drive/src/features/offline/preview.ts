import { AppError, type DriveResource, DriveErrors, GenericErrors, RESOURCE_STATUS_OK, type ResourceListReply } from '@cumulus/protocol'
import type { Caller, DriveDeps } from '../../deps.js'
import { findOwned } from '../../domain/index.js'
import { downloadFileName } from './http/file-name.js'
import { OfflineHttpError, OfflineUrlRefused } from './http/errors.js'
import { openSafeResponse } from './http/safe-request.js'
import { offlineSource, parseOfflineUrl } from './offline-url.js'
import { addressPolicyOf, refuseLiteralPrivateHost } from './source-policy.js'
import { type TorrentMeta, TorrentEngineError } from './torrent/index.js'

/** Links one preview may name. */
export const PREVIEW_MAX_LINKS = 20
/** Previews one account may ask for in a minute (each names up to PREVIEW_MAX_LINKS links). */
export const PREVIEW_REQUESTS_PER_MINUTE = 30
/** Previews one client address may ask for in a minute, all its accounts together. */
export const PREVIEW_REQUESTS_PER_ADDRESS_PER_MINUTE = 60
/** How long a preview waits for one link's headers (a magnet's metadata: `config.torrent.previewTimeoutMs`). */
const HTTP_PREVIEW_TIMEOUT_MS = 10_000

function resource(input: { id: string; name: string; size: number; fileCount: number; url: string; status: string; isDir: boolean; children?: DriveResource[] }): DriveResource {
  return {
    kind: 'drive#resource',
    id: input.id,
    name: input.name,
    file_size: String(input.size),
    file_count: input.fileCount,
    meta: { url: input.url, icon_link: '', status: input.status },
    is_dir: input.isDir,
    dir: input.children ? { resources: input.children } : null,
  }
}

/** A torrent as a resource: a single-file torrent is that file; a folder's leaves carry the file index as id. */
export function torrentResource(meta: TorrentMeta, url: string): DriveResource {
  const files = meta.files.filter((f) => !f.padding)
  if (!meta.multiFile && files.length === 1) return resource({ id: String(files[0]!.index), name: meta.name, size: meta.totalBytes, fileCount: 1, url, status: RESOURCE_STATUS_OK, isDir: false })
  interface Node { name: string; size: number; count: number; children: Map<string, Node>; index?: number }
  const root: Node = { name: meta.name, size: 0, count: 0, children: new Map() }
  for (const file of files) {
    let node = root
    node.size += file.sizeBytes
    node.count++
    for (const [depth, part] of file.path.entries()) {
      const leaf = depth === file.path.length - 1
      const key = leaf ? `\u0000${file.index}` : part
      let child = node.children.get(key)
      if (!child) {
        child = { name: part, size: 0, count: 0, children: new Map(), ...(leaf ? { index: file.index } : {}) }
        node.children.set(key, child)
      }
      child.size += file.sizeBytes
      child.count++
      node = child
    }
  }
  let folders = 0
  const toResource = (node: Node, path: string): DriveResource =>
    node.index !== undefined
      ? resource({ id: String(node.index), name: node.name, size: node.size, fileCount: 1, url: '', status: RESOURCE_STATUS_OK, isDir: false })
      : resource({ id: path === '' ? meta.infoHash : `dir-${++folders}`, name: node.name, size: node.size, fileCount: node.count, url: path === '' ? url : '', status: RESOURCE_STATUS_OK, isDir: true, children: [...node.children.values()].map((c) => toResource(c, `${path}/${c.name}`)) })
  return toResource(root, '')
}

function failed(url: string, name: string, reason: string): DriveResource {
  return resource({ id: '', name, size: 0, fileCount: 0, url, status: reason, isDir: false })
}

/** An http(s) link's name and size, from the headers of a GET that is then cut (no body read). */
async function previewHttp(deps: DriveDeps, url: string, fallbackName: string): Promise<DriveResource> {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(new Error('preview timed out')), HTTP_PREVIEW_TIMEOUT_MS)
  try {
    const { response, finalUrl } = await openSafeResponse({ addresses: addressPolicyOf(deps.config.offlineAllowedNetworks), headersTimeoutMs: HTTP_PREVIEW_TIMEOUT_MS }, { url, headers: { 'accept-encoding': 'identity' } }, abort.signal)
    response.destroy()
    const status = response.statusCode ?? 0
    if (status < 200 || status >= 300) return failed(url, fallbackName, DriveErrors.offline_source_failed.reason)
    const length = Number(response.headers['content-length'])
    const header = response.headers['content-disposition']
    const name = downloadFileName({ contentDisposition: Array.isArray(header) ? header[0] : header, url: finalUrl })
    return resource({ id: '', name, size: Number.isSafeInteger(length) ? length : 0, fileCount: 1, url, status: RESOURCE_STATUS_OK, isDir: false })
  } catch (err) {
    if (err instanceof OfflineUrlRefused) return failed(url, fallbackName, err.reason === 'private_address' || err.reason === 'bad_port' ? DriveErrors.offline_url_refused.reason : DriveErrors.offline_source_unsupported.reason)
    if (err instanceof OfflineHttpError || abort.signal.aborted) return failed(url, fallbackName, DriveErrors.offline_source_failed.reason)
    throw err
  } finally {
    clearTimeout(timer)
    abort.abort()
  }
}

function torrentFailure(err: unknown): string {
  if (!(err instanceof TorrentEngineError)) throw err
  if (err.code === 'engine_unavailable') return DriveErrors.offline_torrent_unavailable.reason
  if (err.code === 'metadata_timeout') return DriveErrors.offline_torrent_no_metadata.reason
  if (err.code === 'invalid_source') return DriveErrors.offline_source_unsupported.reason
  return DriveErrors.offline_source_failed.reason
}

async function previewLink(deps: DriveDeps, raw: string): Promise<DriveResource> {
  let parsed: { url: string; name: string }
  try {
    parsed = parseOfflineUrl(raw)
    const source = offlineSource(parsed.url)
    if (source.kind === 'http') {
      refuseLiteralPrivateHost(source.url, deps.config.offlineAllowedNetworks)
      return await previewHttp(deps, source.url, parsed.name)
    }
    try {
      const meta = await deps.torrents.inspect(source.url, { timeoutMs: deps.config.torrent.previewTimeoutMs })
      return torrentResource(meta, raw)
    } catch (err) {
      return failed(raw, parsed.name, torrentFailure(err))
    }
  } catch (err) {
    if (err instanceof AppError) return failed(raw, raw.slice(0, 255), err.entry.reason)
    throw err
  }
}

/**
 * `POST /drive/v1/resource/list`: what each link (newline-separated `urls`) or, our extension, a
 * `.torrent` file of the caller's drive (`torrent_file_id`) would download: name, size, and a
 * torrent's file tree. A link that cannot be downloaded is listed with its catalogue reason in
 * `meta.status` rather than failing the whole call.
 */
export async function previewResources(deps: DriveDeps, caller: Caller, body: { urls?: string | undefined; torrent_file_id?: string | undefined }, ip: string): Promise<ResourceListReply> {
  const links = (body.urls ?? '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean)
  if (!body.torrent_file_id) {
    if (links.length === 0) throw new AppError(GenericErrors.invalid_argument, { description: 'urls names no link', metadata: { field: 'urls' } })
    if (links.length > PREVIEW_MAX_LINKS) throw new AppError(GenericErrors.invalid_argument, { description: `at most ${PREVIEW_MAX_LINKS} links at once`, metadata: { field: 'urls' } })
  }
  await takePreviewBudget(deps, caller.userId, ip)
  if (body.torrent_file_id) {
    const file = await findOwned(deps.db, caller.userId, body.torrent_file_id)
    if (file.kind !== 'drive#file' || !file.gcid || file.trashed) throw new AppError(DriveErrors.file_not_found, { description: 'not a complete file', metadata: { id: file.id } })
    if (file.size > 16 * 1024 * 1024) return { list: { resources: [failed('', file.name, DriveErrors.offline_source_unsupported.reason)] } }
    const chunks: Buffer[] = []
    for await (const chunk of await deps.blobs.get(file.gcid)) chunks.push(chunk as Buffer)
    try {
      return { list: { resources: [torrentResource(await deps.torrents.inspect(Buffer.concat(chunks), { timeoutMs: deps.config.torrent.previewTimeoutMs }), '')] } }
    } catch (err) {
      return { list: { resources: [failed('', file.name, torrentFailure(err))] } }
    }
  }
  return { list: { resources: await Promise.all(links.map((link) => previewLink(deps, link))) } }
}

/**
 * Each preview makes the server open connections (or ask the swarm) on the caller's behalf, so
 * an account gets PREVIEW_REQUESTS_PER_MINUTE of them; past that, resource_exhausted (429) with
 * Retry-After. The count lives in the shared counter store, so it holds across nodes.
 */
async function takePreviewBudget(deps: DriveDeps, userId: string, ip: string): Promise<void> {
  // Per account, and per address: guest accounts cost nothing to make, so one address could
  // otherwise multiply its budget by the accounts it signs up.
  const [account, address] = await Promise.all([
    deps.counters.increment(`drive:preview:${userId}`, 60),
    deps.counters.increment(`drive:preview-ip:${ip}`, 60),
  ])
  const over = [account.count > PREVIEW_REQUESTS_PER_MINUTE ? account.ttlSeconds : 0, address.count > PREVIEW_REQUESTS_PER_ADDRESS_PER_MINUTE ? address.ttlSeconds : 0]
  if (over.some((ttl) => ttl > 0)) {
    throw new AppError(GenericErrors.resource_exhausted, { description: `at most ${PREVIEW_REQUESTS_PER_MINUTE} previews a minute`, retryAfterSeconds: Math.max(1, ...over) })
  }
}
