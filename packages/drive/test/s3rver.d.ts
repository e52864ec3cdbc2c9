// The slice of s3rver 3.7 (untyped) that test/s3-test-server.ts uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'

  interface S3rverOptions {
    address?: string
    port?: number
    directory?: string
    silent?: boolean
    resetOnClose?: boolean
    configureBuckets?: { name: string }[]
  }

  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
