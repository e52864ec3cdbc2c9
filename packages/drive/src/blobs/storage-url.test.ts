import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { LocalDiskBlobStore } from './local-disk-blob-store.js'
import { openBlobStore } from './open-blob-store.js'
import { DEFAULT_S3_REGION, parseStorageUrl, redactStorageUrl } from './storage-url.js'

describe('parseStorageUrl', () => {
  it('reads bucket, prefix, endpoint, region, path style and credentials from an s3:// URL', () => {
    expect(parseStorageUrl('s3://AKIDEXAMPLE:wJal%2FrXUtn%2BFEMI@my-bucket/cumulus/blobs/?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=false')).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'cumulus/blobs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: false,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJal/rXUtn+FEMI' },
    })
  })

  it('leaves credentials to the AWS chain when the URL has none, and defaults region, prefix and path style', () => {
    expect(parseStorageUrl('s3://my.bucket')).toEqual({ kind: 's3', bucket: 'my.bucket', prefix: '', region: DEFAULT_S3_REGION, forcePathStyle: false })
    expect(parseStorageUrl('s3://b-1/a//b/?endpoint=https%3A%2F%2Fminio.local')).toEqual({
      kind: 's3',
      bucket: 'b-1',
      prefix: 'a/b',
      endpoint: 'https://minio.local',
      region: DEFAULT_S3_REGION,
      // S3-compatible servers mostly need path style.
      forcePathStyle: true,
    })
  })

  it('reads file:// URLs and absolute paths as local folders', () => {
    expect(parseStorageUrl('file:///var/lib/cumulus/blobs')).toEqual({ kind: 'local', root: '/var/lib/cumulus/blobs' })
    expect(parseStorageUrl('/srv/cumulus/../blobs')).toEqual({ kind: 'local', root: '/srv/blobs' })
  })

  it.each([
    ['blobs', /not a URL or an absolute path/],
    ['s3://KEY:sec/ret@bucket/prefix', /percent-encode "\/" in the secret as %2F/],
    ['http://example.com/blobs', /unsupported scheme "http:"/],
    ['s3:///prefix', /names no bucket/],
    ['s3://My_Bucket/prefix', /"My_Bucket" is not an S3 bucket name/],
    ['s3://bucket:9000/prefix', /has a port: give the server as \?endpoint=/],
    ['s3://KEY@bucket', /credentials need both an access key id and a secret/],
    ['s3://bucket?endpoint=127.0.0.1:9000', /endpoint "127.0.0.1:9000" is not an http\(s\) URL/],
    ['s3://bucket?endpoint=ftp://127.0.0.1', /endpoint "ftp:\/\/127.0.0.1" is not an http\(s\) URL/],
    ['s3://bucket?region=EU%20West', /region "EU West" is not a region name/],
    ['s3://bucket?forcePathStyle=yes', /forcePathStyle must be true or false, not "yes"/],
    ['s3://bucket?pathStyle=true', /unknown option "pathStyle" \(known: endpoint, region, forcePathStyle\)/],
    ['s3://bucket?region=us-east-1&region=eu-west-1', /option "region" is given twice/],
    ['s3://bucket/%E0%A4%A', /malformed percent-encoding/],
    ['file://host/share', /Invalid storage URL file:\/\/host\/share: /],
  ])('rejects %s with an error that names the problem', (url, problem) => {
    expect(() => parseStorageUrl(url)).toThrow(problem)
  })

  it('never puts a secret in its error messages', () => {
    for (const url of ['s3://KEY:hunter2@Bad_Bucket', 's3://KEY:hun/ter2@bucket', 's3://KEY:hunter2@bucket?nope=1', 's3://KEY:hunter2@bucket:1']) {
      expect(() => parseStorageUrl(url)).toThrow(/^Invalid storage URL s3:\/\/\*\*\*@/)
      expect(() => parseStorageUrl(url)).not.toThrow(/hun/)
    }
  })
})

describe('redactStorageUrl', () => {
  it('masks the user info and keeps the rest', () => {
    expect(redactStorageUrl('s3://KEY:SECRET@bucket/prefix?region=eu-west-1')).toBe('s3://***@bucket/prefix?region=eu-west-1')
    expect(redactStorageUrl('s3://bucket/prefix')).toBe('s3://bucket/prefix')
  })
})

describe('openBlobStore', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cumulus-data-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('opens a local store at the root a local config names', async () => {
    const store = await openBlobStore({ kind: 'local', root: join(dataDir, 'blobs') }, dataDir)
    expect(store).toBeInstanceOf(LocalDiskBlobStore)
    const { gcid } = await store.put(Readable.from([Buffer.from('default')]), 7)
    expect(existsSync(join(dataDir, 'blobs', gcid.slice(0, 2), gcid.slice(2, 4), gcid))).toBe(true)
  })

  it('opens a local store at the folder a parsed file:// URL names', async () => {
    const root = join(dataDir, 'elsewhere')
    const store = await openBlobStore(parseStorageUrl(`file://${root}`), dataDir)
    const { gcid } = await store.put(Readable.from([Buffer.from('there')]), 5)
    expect(existsSync(join(root, gcid.slice(0, 2), gcid.slice(2, 4), gcid))).toBe(true)
  })
})
