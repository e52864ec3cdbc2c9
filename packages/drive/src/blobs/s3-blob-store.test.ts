import { createHash, randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer, text } from 'node:stream/consumers'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { describeBlobStore } from '../../test/blob-store-suite.js'
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3TestServer } from '../../test/s3-test-server.js'
import { BlobSizeMismatch } from './blob-store.js'
import { gcidOf } from './gcid.js'
import { openBlobStore } from './open-blob-store.js'
import { S3BlobStore } from './s3-blob-store.js'
import { parseStorageUrl } from './storage-url.js'

let server: S3TestServer
const stores: S3BlobStore[] = []
const dirs: string[] = []

beforeAll(async () => {
  // Belt and braces: every client gets explicit credentials, but should one fall back to the
  // default chain, it must not probe the EC2 metadata service.
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true')
  server = await startS3TestServer()
})

afterAll(async () => {
  for (const store of stores) store.destroy()
  await server?.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  vi.unstubAllEnvs()
})

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cumulus-s3-'))
  dirs.push(dir)
  return dir
}

/** A store of its own under a fresh prefix, so tests sharing the bucket cannot see each other's blobs. */
function anS3Store(overrides: { bucket?: string; prefix?: string; stagingDir?: string } = {}): S3BlobStore {
  const store = new S3BlobStore({
    bucket: overrides.bucket ?? server.bucket,
    prefix: overrides.prefix ?? `t-${randomUUID()}`,
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
    stagingDir: overrides.stagingDir ?? tempDir(),
  })
  stores.push(store)
  return store
}

function testClient(): S3Client {
  return new S3Client({ endpoint: server.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS })
}

async function keysUnder(prefix: string): Promise<string[]> {
  const client = testClient()
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: `${prefix}/` }))
    return (listed.Contents ?? []).map((object) => object.Key ?? '').sort()
  } finally {
    client.destroy()
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describeBlobStore('s3 (s3rver on 127.0.0.1)', () => anS3Store())

describe('S3BlobStore', () => {
  it('keeps blobs at <prefix>/AB/CD/<GCID> and leaves nothing else in the bucket or the staging folder, also after a failed put', async () => {
    const stagingDir = tempDir()
    const store = anS3Store({ prefix: 'tenant/blobs', stagingDir })
    const { gcid } = await store.put(Readable.from([Buffer.from('fan out')]), 7)
    await expect(store.put(Readable.from([Buffer.from('x')]), 2)).rejects.toBeInstanceOf(BlobSizeMismatch)
    await expect(store.put(Readable.from([Buffer.from('too long')]), 2)).rejects.toBeInstanceOf(BlobSizeMismatch)
    expect(await keysUnder('tenant/blobs')).toEqual([`tenant/blobs/${gcid.slice(0, 2)}/${gcid.slice(2, 4)}/${gcid}`])
    expect(readdirSync(stagingDir)).toEqual([])
  })

  it('stores a blob larger than one part through a multipart upload and serves ranges across parts', async () => {
    const store = anS3Store()
    // 11 MiB: two parts, of 8 MiB and 3 MiB, each read from its range of the file.
    const content = Buffer.alloc(11 * 1024 * 1024)
    for (let at = 0; at < content.byteLength; at += 4) content.writeUInt32LE(at, at)
    const staging = join(tempDir(), 'upload')
    writeFileSync(staging, content)
    const gcid = gcidOf(content)

    expect(await store.adopt(staging, content.byteLength, gcid)).toEqual({ gcid, sizeBytes: content.byteLength })

    expect(await store.stat(gcid)).toEqual({ gcid, sizeBytes: content.byteLength })
    expect(sha256(await buffer(await store.get(gcid)))).toBe(sha256(content))
    const acrossParts = { start: 5 * 1024 * 1024 - 3, end: 5 * 1024 * 1024 + 4 }
    expect(await buffer(await store.get(gcid, acrossParts))).toEqual(content.subarray(acrossParts.start, acrossParts.end + 1))
  })

  it('does not upload content that is already stored', async () => {
    const store = anS3Store()
    const { gcid } = await store.put(Readable.from([Buffer.from('original')]), 8)
    // A staging file that claims the stored GCID with other bytes: had adopt uploaded it, the blob would change.
    const staging = join(tempDir(), 'upload')
    writeFileSync(staging, 'imposter')
    await store.adopt(staging, 8, gcid)
    expect(await text(await store.get(gcid))).toBe('original')
  })

  it('keeps the staging file when the upload fails', async () => {
    const store = anS3Store({ bucket: 'no-such-bucket' })
    const staging = join(tempDir(), 'upload')
    writeFileSync(staging, 'kept for a retry')
    await expect(store.adopt(staging, 16, gcidOf(Buffer.from('kept for a retry')))).rejects.toMatchObject({ name: 'NoSuchBucket' })
    expect(existsSync(staging)).toBe(true)
  })
})

describe('openBlobStore with an s3:// URL', () => {
  const urlFor = (userinfo: string) => `s3://${userinfo}@${server.bucket}/opened/${randomUUID()}?endpoint=${encodeURIComponent(server.endpoint)}&region=us-east-1`

  it('signs with the credentials in the URL and stores under its prefix', async () => {
    const store = await openBlobStore(parseStorageUrl(urlFor('S3RVER:S3RVER')), tempDir())
    expect(store).toBeInstanceOf(S3BlobStore)
    stores.push(store as S3BlobStore)
    const { gcid } = await store.put(Readable.from([Buffer.from('via url')]), 7)
    expect(await text(await store.get(gcid))).toBe('via url')
  })

  it('works from a frozen configuration, as the server passes it', async () => {
    // Regression: the SDK annotates the credentials object it is given; the server's frozen config made every request fail with a TypeError.
    const storage = parseStorageUrl(urlFor('S3RVER:S3RVER'))
    const frozen = Object.freeze({ ...storage, ...(storage.kind === 's3' && storage.credentials ? { credentials: Object.freeze({ ...storage.credentials }) } : {}) })
    const store = await (await openBlobStore(frozen, tempDir())) as S3BlobStore
    stores.push(store)
    const { gcid } = await store.put(Readable.from([Buffer.from('frozen')]), 6)
    expect(await store.stat(gcid)).toMatchObject({ sizeBytes: 6 })
  })

  // s3rver checks the access key id but not SigV4 signatures, so a wrong key id is what shows the URL's credentials are used.
  it('is refused by the server for an access key it does not know', async () => {
    const store = await (await openBlobStore(parseStorageUrl(urlFor("NOBODY:some%2Fsecret")), tempDir())) as S3BlobStore
    stores.push(store)
    await expect(store.stat(gcidOf(Buffer.from('anything')))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } })
  })
})
