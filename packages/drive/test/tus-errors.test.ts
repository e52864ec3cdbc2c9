import { randomBytes } from 'node:crypto'
import { DriveErrors, type ErrorEntry, GenericErrors, TUS_VERSION } from '@cumulus/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DriveTestApp, startDriveTestApp } from './drive-test-app.js'
import { OCTETS, TUS, createUpload, pathOf } from './upload-kit.js'

// Issue 11, "Errors outside the catalogue's shape": the tus routes answered text/plain bodies
// ("Upload-Offset conflict", "upload's size exceeded", "Tus-Resumable Required", …) and tus's HEAD
// an empty 400. Every error now has the contract's JSON body with the drive domain, and keeps
// the status and tus headers tus clients act on.

let t: DriveTestApp
beforeAll(async () => {
  t = await startDriveTestApp()
})
afterAll(async () => {
  await t?.close()
})

interface Sent {
  status: number
  headers: Record<string, unknown>
  body: string
}

async function send(method: string, url: string, token: string, headers: Record<string, string>, payload?: Buffer): Promise<Sent> {
  const res = await t.server.app.inject({ method: method as 'PATCH', url, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) })
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

/** The reply is `entry` in the contract's shape, drive domain, with tus's own headers kept. */
function expectCatalogueError(reply: Sent, entry: ErrorEntry, method = 'PATCH') {
  expect(reply.status).toBe(entry.status)
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(reply.headers['tus-resumable'] ?? reply.headers['tus-version']).toBe(TUS_VERSION)
  // A real HEAD reply carries no body (Node drops it); inject shows what would have been sent.
  if (method === 'HEAD' && reply.body === '') return
  expect(JSON.parse(reply.body)).toMatchObject({
    error: entry.reason,
    error_code: entry.code,
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', domain: 'drive' }, { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage' }],
  })
}

async function newUpload(size = 1000) {
  const token = await t.signUp()
  const created = await createUpload(t, token, { name: `u-${randomBytes(4).toString('hex')}.bin`, size })
  return { token, url: pathOf(created.body.resumable.params.endpoint as string) }
}

describe('tus errors in the catalogue shape', () => {
  it('PATCH at the wrong offset: 409 upload_offset_conflict', async () => {
    const { token, url } = await newUpload()
    expectCatalogueError(await send('PATCH', url, token, { ...TUS, 'upload-offset': '5', 'content-type': OCTETS }, randomBytes(10)), DriveErrors.upload_offset_conflict)
  })

  it('PATCH past the declared size: 413 upload_size_exceeded', async () => {
    const { token, url } = await newUpload(10)
    expectCatalogueError(await send('PATCH', url, token, { ...TUS, 'upload-offset': '0', 'content-type': OCTETS }, randomBytes(11)), DriveErrors.upload_size_exceeded)
  })

  it('PATCH without Tus-Resumable: 412 upload_protocol_unsupported with Tus-Version', async () => {
    const { token, url } = await newUpload()
    const reply = await send('PATCH', url, token, { 'upload-offset': '0', 'content-type': OCTETS }, randomBytes(10))
    expectCatalogueError(reply, DriveErrors.upload_protocol_unsupported)
    expect(reply.headers['tus-version']).toBe(TUS_VERSION)
  })

  it('PATCH without Upload-Offset: 403 upload_header_required', async () => {
    const { token, url } = await newUpload()
    expectCatalogueError(await send('PATCH', url, token, { ...TUS, 'content-type': OCTETS }, randomBytes(10)), DriveErrors.upload_header_required)
  })

  it('PATCH with another content type: 415 upload_content_type_invalid', async () => {
    const { token, url } = await newUpload()
    expectCatalogueError(await send('PATCH', url, token, { ...TUS, 'upload-offset': '0', 'content-type': 'text/plain' }, randomBytes(10)), DriveErrors.upload_content_type_invalid)
    // Whatever the body looks like: one that reads as JSON (or a broken JSON) is still the wrong type.
    for (const [type, body] of [['text/plain', '{"a":'], ['text/plain', '[1]'], ['application/json', '{}'], ['application/x-www-form-urlencoded', 'a=1']]) {
      expectCatalogueError(await send('PATCH', url, token, { ...TUS, 'upload-offset': '0', 'content-type': type as string }, Buffer.from(body as string)), DriveErrors.upload_content_type_invalid)
    }
  })

  it('HEAD, POST and DELETE through @tus/server: a bad version, a missing Tus-Resumable, a bad length', async () => {
    const { token, url } = await newUpload()
    // HEAD has no body; its status and headers still follow tus, and the type is the contract's.
    expectCatalogueError(await send('HEAD', url, token, { 'tus-resumable': '0.2.2' }), GenericErrors.invalid_argument, 'HEAD')
    const post = await send('POST', '/drive/v1/uploads', token, { 'upload-length': '10' })
    expectCatalogueError(post, DriveErrors.upload_protocol_unsupported, 'POST')
    expect(post.headers['tus-version']).toBe(TUS_VERSION)
    expectCatalogueError(await send('POST', '/drive/v1/uploads', token, { ...TUS, 'upload-length': 'abc' }), GenericErrors.invalid_argument, 'POST')
    expectCatalogueError(await send('POST', '/drive/v1/uploads', token, { ...TUS, 'upload-length': '10', 'upload-defer-length': '1' }), GenericErrors.unimplemented, 'POST')
    expectCatalogueError(await send('DELETE', url, token, { 'tus-resumable': '0.2.2' }), GenericErrors.invalid_argument, 'DELETE')
  })
})
