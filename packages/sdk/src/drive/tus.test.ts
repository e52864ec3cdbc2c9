import { DriveErrors, GenericErrors, LocalErrors } from '@cumulus/protocol'
import { describe, expect, it } from 'vitest'
import { errorMessage } from '../errors.js'
import { type TusReply, fetchSender, isRetryableTusError, tusReplyError } from './tus.js'

const reply = (status: number, body = ''): TusReply => ({ status, body, header: () => null })

describe('tusReplyError', () => {
  it('reads the contract error body when the server sent one', () => {
    const body = { error: 'file_space_not_enough', error_code: 8, error_description: 'over quota', error_uri: '', details: [] }
    const error = tusReplyError(reply(403, JSON.stringify(body)), 'PATCH')
    expect(error.toJSON()).toEqual(body)
    expect(error.is(DriveErrors.file_space_not_enough)).toBe(true)
    expect(error.status).toBe(403)
    expect(isRetryableTusError(error)).toBe(false)
  })

  it.each([
    [404, GenericErrors.not_found, false],
    [410, GenericErrors.not_found, false],
    [409, GenericErrors.aborted, true],
    [423, GenericErrors.aborted, true],
    [412, GenericErrors.failed_precondition, false],
    [413, GenericErrors.out_of_range, false],
    [460, GenericErrors.data_loss, false],
    [429, GenericErrors.resource_exhausted, true],
    [500, GenericErrors.internal, true],
    [502, GenericErrors.unavailable, true],
    [503, GenericErrors.unavailable, true],
    [504, GenericErrors.deadline_exceeded, true],
    [400, GenericErrors.invalid_argument, false],
    [403, GenericErrors.permission_denied, false],
  ])('maps a plain-text %i to %o (retryable: %s), keeping the status and the text', (status, entry, retryable) => {
    const error = tusReplyError(reply(status, 'tus says no\n'), 'PATCH')
    expect(error.error).toBe(entry.reason)
    expect(error.errorCode).toBe(entry.code)
    expect(error.status).toBe(status)
    expect(error.errorDescription).toBe(`PATCH failed with HTTP ${status}: tus says no`)
    expect(isRetryableTusError(error)).toBe(retryable)
  })

  it('gives a user-facing message naming the error', () => {
    const error = tusReplyError(reply(503), 'HEAD')
    expect(errorMessage(error, 'en-US')).toContain('unavailable')
  })
})

describe('fetchSender', () => {
  const request = (signal = new AbortController().signal) => ({ method: 'HEAD' as const, url: 'https://drive.test/u/1', headers: {}, signal })

  it('turns a network failure into unreachable (retryable), and an abort into cancelled', async () => {
    const failing = fetchSender(async () => {
      throw new TypeError('fetch failed')
    })
    const unreachable = await failing(request()).catch((e: unknown) => e)
    expect(unreachable).toMatchObject({ error: LocalErrors.unreachable.reason, status: 0 })
    expect(isRetryableTusError(unreachable as never)).toBe(true)

    const controller = new AbortController()
    const hanging = fetchSender((_input, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))))
    const pending = hanging(request(controller.signal)).catch((e: unknown) => e)
    controller.abort()
    expect(await pending).toMatchObject({ error: GenericErrors.cancelled.reason, status: 0 })
  })

  it('reads headers and the body of the reply', async () => {
    const send = fetchSender(async () => new Response('oops', { status: 500, headers: { 'upload-offset': '7' } }))
    const got = await send({ ...request(), method: 'PATCH', body: new Uint8Array(1) })
    expect([got.status, got.body, got.header('Upload-Offset')]).toEqual([500, 'oops', '7'])
  })
})
