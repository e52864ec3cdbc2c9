import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { TUS_VERSION } from '@cumulus/protocol'
import type { DriveTestApp, Reply } from './drive-test-app.js'

/** Anything that sends requests like DriveTestApp.call (the test app, or a server rebuilt on its data). */
export type Caller = Pick<DriveTestApp, 'call'>

/** Helpers for the upload, download and crash tests: the tus requests a client sends, and what is on disk. */

export const TUS = { 'tus-resumable': TUS_VERSION }
export const OCTETS = 'application/offset+octet-stream'

/** The path and query of an absolute URL this server made (endpoints, download links). */
export function pathOf(url: string): string {
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}

export function createUpload(t: Caller, token: string, body: { name: string; size: number | string; hash?: string; parent_id?: string }): Promise<Reply> {
  return t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', resumable: { provider: 'PROVIDER_TUS' }, ...body } })
}

export function patch(t: Caller, token: string, endpoint: string, offset: number, bytes: Uint8Array): Promise<Reply> {
  return t.call('PATCH', pathOf(endpoint), { token, headers: { ...TUS, 'upload-offset': String(offset), 'content-type': OCTETS }, payload: Buffer.from(bytes) })
}

export function head(t: Caller, token: string, endpoint: string): Promise<Reply> {
  return t.call('HEAD', pathOf(endpoint), { token, headers: TUS })
}

/** Uploads `content` in one PATCH and returns the complete file as GET /drive/v1/files/:id shows it. */
export async function uploadFile(t: Caller, token: string, name: string, content: Uint8Array, parentId = ''): Promise<any> {
  const created = await createUpload(t, token, { name, size: content.byteLength, parent_id: parentId })
  if (created.status !== 200) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`)
  if (created.body.file.phase !== 'PHASE_TYPE_COMPLETE') {
    const sent = await patch(t, token, created.body.resumable.params.endpoint, 0, content)
    if (sent.status !== 204) throw new Error(`PATCH failed: ${sent.status} ${String(sent.body)}`)
  }
  return (await t.call('GET', `/drive/v1/files/${created.body.file.id}`, { token })).body
}

/** GET (or HEAD) a file's web_content_link, without the bearer. */
export function download(t: Caller, file: { web_content_link: string }, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return t.call(method, pathOf(file.web_content_link), { headers })
}

/** The GCIDs of the blobs stored on local disk under `<dataDir>/blobs` (temporary files excluded). */
export function storedBlobs(dataDir: string): string[] {
  const root = join(dataDir, 'blobs')
  const found: string[] = []
  const walk = (dir: string) => {
    let entries: string[]
    try {
      entries = readdirSync(dir)
    } catch {
      return
    }
    for (const name of entries) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) {
        if (name !== 'tmp') walk(path)
      } else if (/^[0-9A-F]{40}$/.test(name)) found.push(name)
    }
  }
  walk(root)
  return found.sort()
}

/** The files in the upload staging folder. */
export function stagingFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'uploads')).sort()
  } catch {
    return []
  }
}
