import { GenericErrors, LocalErrors } from '@cumulus/protocol'
import { IdentityError } from '@cumulus/sdk'
import { describe, expect, it, vi } from 'vitest'
import { parseArchiveEntries } from './drive-replies'
import { type DriveOutcome, sendDriveCall, toDriveViewState } from './drive-request'

const failed = (error: unknown): DriveOutcome => ({ ok: false, error })
const identity = (error: string, errorCode: number, status: number, description = '') => new IdentityError({ error, errorCode, status, errorDescription: description })

describe('toDriveViewState', () => {
  it('shows the parsed reply when the call succeeds', () => {
    expect(toDriveViewState({ ok: true, body: { files: [{ name: 'holiday.mp4', size: '10' }] } }, parseArchiveEntries, 'en-US')).toEqual({ status: 'ready', data: [{ name: 'holiday.mp4', sizeBytes: 10, isFolder: false }] })
  })

  it('shows an error, never made-up content, when the reply cannot be read', () => {
    const state = toDriveViewState({ ok: true, body: { unexpected: true } }, parseArchiveEntries, 'en-US')
    expect(state.status).toBe('error')
  })

  // What this server answers today: the web plugin's JSON 404 for a /drive/v1/ path it does not serve.
  it('says the feature comes later when the server has no such drive endpoint (404 not_found)', () => {
    const error = IdentityError.of(GenericErrors.not_found, 'no API route POST /decompress/v1/list', { status: 404 })
    expect(toDriveViewState(failed(error), parseArchiveEntries, 'en-US')).toEqual({ status: 'unavailable' })
  })

  it('says the feature comes later on 501 unimplemented', () => {
    expect(toDriveViewState(failed(IdentityError.of(GenericErrors.unimplemented)), parseArchiveEntries, 'en-US')).toEqual({ status: 'unavailable' })
  })

  // file_not_found shares code 5 with not_found: a missing archive is not a missing feature.
  it('reports a missing file as not-found, not as a feature to come', () => {
    expect(toDriveViewState(failed(identity('file_not_found', 5, 404)), parseArchiveEntries, 'en-US')).toEqual({ status: 'not-found' })
  })

  it('asks for a sign-in on 401 unauthenticated and on the SDK’s own "not signed in"', () => {
    expect(toDriveViewState(failed(IdentityError.of(GenericErrors.unauthenticated)), parseArchiveEntries, 'en-US')).toEqual({ status: 'sign-in-required' })
    expect(toDriveViewState(failed(IdentityError.of(GenericErrors.unauthenticated, 'not signed in', { status: 0 })), parseArchiveEntries, 'en-US')).toEqual({ status: 'sign-in-required' })
  })

  it('reports an unreachable server as offline', () => {
    expect(toDriveViewState(failed(IdentityError.of(LocalErrors.unreachable)), parseArchiveEntries, 'en-US')).toEqual({ status: 'offline' })
  })

  it('passes any other error on with a message in the page’s language', () => {
    const error = new IdentityError({
      error: 'file_space_not_enough',
      errorCode: 8,
      status: 400,
      details: [{ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'ko', message: '저장 공간이 부족합니다.' }],
    })
    expect(toDriveViewState(failed(error), parseArchiveEntries, 'ko')).toEqual({ status: 'error', message: '저장 공간이 부족합니다.' })
  })

  it('turns a non-SDK failure into an error state', () => {
    expect(toDriveViewState(failed(new TypeError('boom')), parseArchiveEntries, 'en-US').status).toBe('error')
  })
})

describe('sendDriveCall', () => {
  it('calls the drive through the SDK’s request() with the bearer token when asked', async () => {
    const request = vi.fn(async () => ({ files: [] }))
    const outcome = await sendDriveCall({ request } as never, { method: 'POST', path: '/decompress/v1/list', body: { file_id: 'f1', path: '' } }, { auth: true })
    expect(outcome).toEqual({ ok: true, body: { files: [] } })
    expect(request).toHaveBeenCalledWith('POST', '/decompress/v1/list', { query: undefined, body: { file_id: 'f1', path: '' }, auth: true, signal: undefined })
  })

  it('settles a rejection into an outcome instead of throwing', async () => {
    const error = IdentityError.of(GenericErrors.not_found, '', { status: 404 })
    const request = vi.fn(async () => {
      throw error
    })
    await expect(sendDriveCall({ request } as never, { method: 'GET', path: '/drive/v1/search/associate', query: { q: 'a' } }, { auth: false })).resolves.toEqual({ ok: false, error })
  })
})
