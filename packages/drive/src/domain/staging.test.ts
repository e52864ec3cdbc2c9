import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fullCollection } from '../../../../test-support/full-collection.js'
import { gcidOfFile } from '../blobs/gcid.js'
import { StagingArea } from './staging.js'

const MiB = 1024 * 1024
const CHUNK = 64 * 1024

describe('StagingArea uploads', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cumulus-staging-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('holds only what is on its way to the file while a PATCH body arrives, not the body so far, and hashes it all', async () => {
    const total = 128 * MiB
    const staging = new StagingArea(dir, 3_600_000)
    await staging.create('u1', total, {}, Date.now())
    const gc = fullCollection()
    gc()
    const before = process.memoryUsage().arrayBuffers
    // What survives a full collection every 32 MiB is what is still referenced. The chunks were
    // all kept for the hash until the body ended: 32, 64 and 96 MiB here, the whole body at the
    // end (a 1 GiB PATCH held 1 GiB).
    const held: number[] = []
    let made = 0
    const body = new Readable({
      read() {
        if (made === total) return void this.push(null)
        if (made > 0 && made % (32 * MiB) === 0) {
          gc()
          held.push(process.memoryUsage().arrayBuffers - before)
        }
        const chunk = Buffer.alloc(CHUNK, (made / CHUNK) & 0xff)
        made += CHUNK
        this.push(chunk)
      },
    })
    expect(await staging.store.write(body, 'u1', 0)).toBe(total)
    expect(held).toHaveLength(3)
    for (const bytes of held) expect(bytes).toBeLessThan(24 * MiB)
    // The GCID computed on the way is the file's.
    expect(staging.takeStreamedGcid('u1', total)).toBe(await gcidOfFile(staging.dataPath('u1'), total))
  })

  it('forgets the running hash of an upload removed before its end (cancelled, expired, tus DELETE)', async () => {
    const staging = new StagingArea(dir, 3_600_000)
    for (const id of ['cancelled', 'terminated']) {
      await staging.create(id, 10, {}, Date.now())
      expect(await staging.store.write(Readable.from([Buffer.from('abc')]), id, 0)).toBe(3)
    }
    expect(staging.runningHashes).toBe(2)
    await staging.remove('cancelled')
    await staging.store.remove('terminated')
    expect(staging.runningHashes).toBe(0)
  })

  it('drops a running hash whose upload took no bytes here for longer than an upload lives (its end went to another node)', async () => {
    let now = Date.now()
    const staging = new StagingArea(dir, 60_000, () => now)
    const start = async (id: string) => {
      await staging.create(id, 10, {}, now)
      expect(await staging.store.write(Readable.from([Buffer.from('abc')]), id, 0)).toBe(3)
    }
    await start('elsewhere')
    await start('here')
    // 'here' goes on receiving bytes; 'elsewhere' got its last bytes on another node.
    now += 40_000
    expect(await staging.store.write(Readable.from([Buffer.from('def')]), 'here', 3)).toBe(6)
    now += 30_000
    await start('next')
    expect(staging.runningHashes).toBe(2)
    // The hash that stayed is still whole: the upload ends with the GCID of its bytes.
    expect(await staging.store.write(Readable.from([Buffer.from('ghij')]), 'here', 6)).toBe(10)
    expect(staging.takeStreamedGcid('here', 10)).toBe(await gcidOfFile(staging.dataPath('here'), 10))
    expect(staging.takeStreamedGcid('elsewhere', 3)).toBeNull()
  })
})
