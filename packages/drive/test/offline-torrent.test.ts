import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { DriveErrors } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalSwarm, startLocalSwarm } from '../../../test-support/torrent-swarm.js'
import { gcidOf } from '../src/blobs/gcid.js'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'

// A real local swarm: a bittorrent-tracker on 127.0.0.1 and aria2c seeders; the server's own
// aria2 with the DHT and peer exchange off, so nothing leaves this machine.
describe('offline downloads over BitTorrent, end to end', () => {
  let t: DriveTestApp
  let swarm: LocalSwarm
  const movie = randomBytes(700_000)
  const notes = randomBytes(40_000)
  const single = randomBytes(300_000)

  beforeAll(async () => {
    swarm = await startLocalSwarm()
    t = await startDriveTestApp({ OFFLINE_ALLOW_NETWORKS: '127.0.0.1/32', TORRENT_DHT: 'false', TORRENT_PEER_EXCHANGE: 'false', TORRENT_PREVIEW_SECONDS: '8' }, { offlineDownloads: true })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await swarm?.close()
  })

  async function add(token: string, body: Record<string, unknown>) {
    const reply = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', ...body } })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body.task as { id: string }
  }

  async function settled(token: string, id: string, timeoutMs = 40_000) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const task = (await t.call('GET', `/drive/v1/tasks/${id}`, { token })).body
      if (task.phase === 'PHASE_TYPE_COMPLETE' || task.phase === 'PHASE_TYPE_ERROR') return task
      if (Date.now() > deadline) throw new Error(`task ${id} still ${task.phase} (${task.message})`)
      await sleep(200)
    }
  }

  const list = async (token: string, parentId: string) => (await t.call('GET', '/drive/v1/files', { token, query: { parent_id: parentId } })).body.files as { id: string; name: string; kind: string; hash: string; size: string }[]

  it('previews a magnet from the swarm, downloads it into one folder named after the torrent (padding left out), and again with only the files picked', async () => {
    const torrent = await swarm.makeTorrent('Holiday', [
      { path: ['video', 'movie.mp4'], bytes: movie },
      { path: ['.pad', '0'], bytes: new Uint8Array(1000), padding: true },
      { path: ['notes.txt'], bytes: notes },
    ])
    await swarm.seed(torrent)
    const token = await t.signUp()

    const preview = await t.call('POST', '/drive/v1/resource/list', { token, body: { urls: torrent.magnet } })
    expect(preview.status).toBe(200)
    const [resource] = preview.body.list.resources
    expect(resource).toMatchObject({ kind: 'drive#resource', name: 'Holiday', is_dir: true, file_count: 2, file_size: String(movie.length + notes.length), meta: { status: 'OK' } })
    const leaves = JSON.stringify(resource.dir.resources)
    expect(leaves).toContain('movie.mp4')
    expect(leaves).not.toContain('.pad')

    const task = await add(token, { url: { url: torrent.magnet } })
    const done = await settled(token, task.id)
    expect(done).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100, file_name: 'Holiday', file_size: String(movie.length + notes.length) })
    expect(done.reference_resource).toMatchObject({ kind: 'drive#folder', name: 'Holiday' })
    const top = await list(token, done.file_id)
    expect(top.map((f) => f.name).sort()).toEqual(['notes.txt', 'video'])
    const video = await list(token, top.find((f) => f.name === 'video')!.id)
    expect(video).toEqual([expect.objectContaining({ name: 'movie.mp4', hash: gcidOf(movie), size: String(movie.length) })])
    expect(top.find((f) => f.name === 'notes.txt')).toMatchObject({ hash: gcidOf(notes) })

    // Another account adds the whole magnet: it lands at once from the stored blobs, as the same tree.
    const other = await t.signUp()
    const instant = await t.call('POST', '/drive/v1/files', { token: other, body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: torrent.magnet } } })
    expect(instant.body.file).toMatchObject({ kind: 'drive#folder', name: 'Holiday' })
    expect(instant.body.task).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_id: instant.body.file.id, file_size: String(movie.length + notes.length) })
    expect(instant.body.task.message).toMatch(/downloaded before/)
    const otherTop = await list(other, instant.body.file.id)
    expect(otherTop.map((f) => f.name).sort()).toEqual(['notes.txt', 'video'])
    expect(await list(other, otherTop.find((f) => f.name === 'video')!.id)).toEqual([expect.objectContaining({ name: 'movie.mp4', hash: gcidOf(movie) })])

    // The same magnet again, with only the notes picked: a second folder with just that file.
    const notesLeaf = (resource.dir.resources as { id: string; name: string }[]).find((r) => r.name === 'notes.txt')!
    const picked = await add(token, { url: { url: torrent.magnet, files: [notesLeaf.id] } })
    const pickedDone = await settled(token, picked.id)
    expect(pickedDone).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_name: 'Holiday(1)', file_size: String(notes.length) })
    expect((await list(token, pickedDone.file_id)).map((f) => f.name)).toEqual(['notes.txt'])
  })

  it('lands a single-file torrent added from a .torrent file in the drive as that file', async () => {
    const torrent = await swarm.makeTorrent('single.bin', [{ path: ['single.bin'], bytes: single }], { single: true })
    await swarm.seed(torrent)
    const token = await t.signUp()
    // The .torrent goes into the drive first (an instant-free upload through tus is not needed: a tiny file).
    const created = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', name: 'single.torrent', parent_id: '', size: String(torrent.torrentFile.length), upload_type: 'UPLOAD_TYPE_RESUMABLE' } })
    const endpoint = new URL(created.body.resumable.params.endpoint)
    const patched = await t.call('PATCH', endpoint.pathname, { token, payload: Buffer.from(torrent.torrentFile), headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } })
    expect(patched.status).toBe(204)
    const torrentFileId = created.body.file.id

    const preview = await t.call('POST', '/drive/v1/resource/list', { token, body: { torrent_file_id: torrentFileId } })
    expect(preview.body.list.resources[0]).toMatchObject({ name: 'single.bin', is_dir: false, file_size: String(single.length) })

    const task = await add(token, { url: { url: '' }, params: { torrent_file_id: torrentFileId } })
    const done = await settled(token, task.id)
    expect(done).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_name: 'single.bin' })
    const file = (await t.call('GET', `/drive/v1/files/${done.file_id}`, { token })).body
    expect(file).toMatchObject({ kind: 'drive#file', name: 'single.bin', hash: gcidOf(single) })
  })

  it('fails a dead magnet with a clear reason once no peer sends its metadata', async () => {
    const token = await t.signUp()
    const dead = `magnet:?xt=urn:btih:${randomBytes(20).toString('hex')}&dn=nothing&tr=${encodeURIComponent(swarm.announceUrl)}`
    const preview = await t.call('POST', '/drive/v1/resource/list', { token, body: { urls: `${dead}\nhttp://169.254.169.254/latest/meta-data/` } })
    expect(preview.body.list.resources.map((r: { meta: { status: string } }) => r.meta.status)).toEqual([DriveErrors.offline_torrent_no_metadata.reason, DriveErrors.offline_url_refused.reason])
  }, 40_000)
  it('never contacts a refused address that a .torrent or a magnet names (trackers, web seeds), and still downloads through the others', async () => {
    // A "tracker" on 127.0.0.2, outside the allowed 127.0.0.1/32, first in every announce list.
    const hits: string[] = []
    const canary = createServer((req, res) => {
      hits.push(req.url ?? '')
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.2', resolve))
    const canaryUrl = `http://127.0.0.2:${(canary.address() as AddressInfo).port}/announce`
    try {
      const token = await t.signUp()
      // Its web seed (url-list) names the same address, and so does a tracker URL that the WHATWG
      // parser reads as 8.8.8.8 and aria2 as the canary: aria2 would fetch from both.
      const fromFile = await swarm.makeTorrent('guarded.bin', [{ path: ['guarded.bin'], bytes: randomBytes(50_000) }], { single: true, leadingTrackers: [canaryUrl, `http://8.8.8.8\\@${new URL(canaryUrl).host}/announce`], webSeeds: [canaryUrl.replace('/announce', '/seed/')] })
      const fromMagnet = await swarm.makeTorrent('Guarded', [{ path: ['a.bin'], bytes: randomBytes(30_000) }, { path: ['b.bin'], bytes: randomBytes(20_000) }], { leadingTrackers: [canaryUrl] })
      await swarm.seed(fromFile)
      await swarm.seed(fromMagnet)

      const created = await t.call('POST', '/drive/v1/files', { token, body: { kind: 'drive#file', name: 'guarded.torrent', parent_id: '', size: String(fromFile.torrentFile.length), upload_type: 'UPLOAD_TYPE_RESUMABLE' } })
      const endpoint = new URL(created.body.resumable.params.endpoint)
      await t.call('PATCH', endpoint.pathname, { token, payload: Buffer.from(fromFile.torrentFile), headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } })
      const byFile = await add(token, { url: { url: '' }, params: { torrent_file_id: created.body.file.id } })
      expect(await settled(token, byFile.id)).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_name: 'guarded.bin' })

      const preview = await t.call('POST', '/drive/v1/resource/list', { token, body: { urls: fromMagnet.magnet } })
      expect(preview.body.list.resources[0]).toMatchObject({ name: 'Guarded', meta: { status: 'OK' } })
      const byMagnet = await add(token, { url: { url: fromMagnet.magnet } })
      expect(await settled(token, byMagnet.id)).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_name: 'Guarded' })

      expect(hits).toEqual([])
    } finally {
      await new Promise((resolve) => canary.close(resolve))
    }
  })
})
