import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

/** s3rver's one account: it checks request signatures against these. */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for the S3 client's endpoint. */
  endpoint: string
  /** A bucket that exists from the start. */
  bucket: string
  /** Where s3rver keeps the objects, for tests that look behind the API. */
  directory: string
  stop(): Promise<void>
}

/**
 * A real S3-compatible server (s3rver, objects in a temp folder) on 127.0.0.1 and a free port.
 * Start it in beforeAll and stop it in afterAll. Clients must be given the endpoint and
 * S3_TEST_CREDENTIALS, so that nothing reaches for AWS or the instance metadata service.
 */
export async function startS3TestServer(bucket = 'cumulus-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'cumulus-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    async stop() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
