import { isAbsolute, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where blobs live, as one setting:
 * - `file:///var/lib/cumulus/blobs` or an absolute path: LocalDiskBlobStore at that folder;
 * - `s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true`:
 *   S3BlobStore. Credentials come from the URL's user info (`s3://KEY:SECRET@bucket/prefix`,
 *   percent-encoded: AWS secrets may contain `/`, which must be written `%2F`) or, when it has
 *   none, from the AWS SDK's standard chain (environment, shared config files, instance roles).
 */
export type StorageConfig = LocalStorageConfig | S3StorageConfig

export interface LocalStorageConfig {
  kind: 'local'
  root: string
}

export interface S3StorageConfig {
  kind: 's3'
  bucket: string
  /** Key prefix without leading or trailing slash; '' puts blobs at the bucket's top. */
  prefix: string
  /** An S3-compatible server (MinIO, Ceph, ...); absent for AWS itself. */
  endpoint?: string
  region: string
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`. */
  forcePathStyle: boolean
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/** Used when the URL names none: AWS needs some region to sign requests, and most S3-compatible servers accept this one. */
export const DEFAULT_S3_REGION = 'us-east-1'

const S3_OPTIONS = ['endpoint', 'region', 'forcePathStyle'] as const
// The S3 naming rules for new buckets: 3 to 63 lower-case letters, digits, dots and hyphens.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const REGION_NAME = /^[a-z0-9-]+$/

/** Parses a storage URL (see StorageConfig). Throws an Error that names the problem and never echoes a secret. */
export function parseStorageUrl(url: string): StorageConfig {
  const fail: (problem: string) => never = (problem) => {
    throw new Error(`Invalid storage URL ${redactStorageUrl(url)}: ${problem}`)
  }
  if (isAbsolute(url) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return { kind: 'local', root: normalize(url) }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return fail('not a URL or an absolute path (in s3://KEY:SECRET@bucket, percent-encode "/" in the secret as %2F)')
  }
  if (parsed.protocol === 'file:') {
    try {
      return { kind: 'local', root: fileURLToPath(parsed) }
    } catch (err) {
      return fail((err as Error).message)
    }
  }
  if (parsed.protocol !== 's3:') return fail(`unsupported scheme "${parsed.protocol}" (use s3://bucket/prefix, file:///path or an absolute path)`)

  const bucket = parsed.hostname
  if (!bucket) fail('names no bucket (s3://bucket/prefix)')
  if (!BUCKET_NAME.test(bucket)) fail(`"${bucket}" is not an S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`)
  if (parsed.port) fail('has a port: give the server as ?endpoint=http://host:port')
  if (parsed.hash) fail('has a #fragment')

  const prefix = decode(parsed.pathname, fail)
    .split('/')
    .filter((segment) => segment !== '')
    .join('/')

  let credentials: S3StorageConfig['credentials']
  if (parsed.username || parsed.password) {
    const accessKeyId = decode(parsed.username, fail)
    const secretAccessKey = decode(parsed.password, fail)
    if (!accessKeyId || !secretAccessKey) fail('credentials need both an access key id and a secret (s3://KEY:SECRET@bucket)')
    credentials = { accessKeyId, secretAccessKey }
  }

  const seen = new Set<string>()
  for (const key of parsed.searchParams.keys()) {
    if (!(S3_OPTIONS as readonly string[]).includes(key)) fail(`unknown option "${key}" (known: ${S3_OPTIONS.join(', ')})`)
    if (seen.has(key)) fail(`option "${key}" is given twice`)
    seen.add(key)
  }
  const option = (key: (typeof S3_OPTIONS)[number]) => parsed.searchParams.get(key) ?? undefined

  const endpoint = option('endpoint')
  if (endpoint !== undefined) {
    let endpointUrl: URL | undefined
    try {
      endpointUrl = new URL(endpoint)
    } catch {
      endpointUrl = undefined
    }
    if (!endpointUrl || (endpointUrl.protocol !== 'http:' && endpointUrl.protocol !== 'https:')) fail(`endpoint "${endpoint}" is not an http(s) URL`)
  }

  const region = option('region') ?? DEFAULT_S3_REGION
  if (!REGION_NAME.test(region)) fail(`region "${region}" is not a region name`)

  // S3-compatible servers mostly serve buckets only by path (a bucket's DNS name would have to
  // resolve to them), so a custom endpoint defaults to path style; AWS itself to virtual hosts.
  let forcePathStyle = endpoint !== undefined
  const pathStyle = option('forcePathStyle')
  if (pathStyle !== undefined) {
    if (pathStyle !== 'true' && pathStyle !== 'false') fail(`forcePathStyle must be true or false, not "${pathStyle}"`)
    forcePathStyle = pathStyle === 'true'
  }

  return {
    kind: 's3',
    bucket,
    prefix,
    ...(endpoint !== undefined && { endpoint }),
    region,
    forcePathStyle,
    ...(credentials && { credentials }),
  }
}

/** The URL with its credentials masked, for logs and error messages. */
export function redactStorageUrl(url: string): string {
  // Up to the last "@" before the path: a secret with an unencoded "/" or "@" stays hidden too.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, '$1***@')
}

function decode(value: string, fail: (problem: string) => never): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return fail('has a malformed percent-encoding')
  }
}
