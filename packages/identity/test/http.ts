import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { ErrorEntry } from '@cumulus/protocol'
import { codeIn } from '../../../test-support/smtp-sink.js'
import type { TestApp } from './test-app.js'

export interface CallOptions {
  body?: unknown
  query?: Record<string, string>
  headers?: Record<string, string>
  token?: string
  captcha?: string
}

/** One request through app.inject, JSON by default. */
export function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'x-client-id': 'cumulus-web', ...options.headers }
  if (options.token) headers['authorization'] = `Bearer ${options.token}`
  if (options.captcha) headers['x-captcha-token'] = options.captcha
  return app.inject({ method, url, headers, ...(options.query ? { query: options.query } : {}), ...(options.body !== undefined ? { payload: options.body as object } : {}) })
}

/** A captcha token for `action` (low risk in auto mode). */
export async function captchaFor(app: FastifyInstance, action: string, meta: Record<string, unknown> = {}, deviceId?: string): Promise<string> {
  const res = await call(app, 'POST', '/v1/shield/captcha/init', { body: { client_id: 'cumulus-web', action, meta, ...(deviceId ? { device_id: deviceId } : {}) } })
  expect(res.statusCode, res.body).toBe(200)
  const token = res.json().captcha_token
  expect(typeof token).toBe('string')
  return token
}

/** Asserts the contract's error body for `entry` and returns it. */
export function expectErrorReply(res: LightMyRequestResponse, entry: ErrorEntry) {
  expect(res.statusCode, res.body).toBe(entry.status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  const body = res.json()
  expect(body).toMatchObject({ error: entry.reason, error_code: entry.code, error_uri: '' })
  expect(typeof body.error_description).toBe('string')
  expect(body.details).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo' }),
      expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', message: expect.any(String) }),
    ]),
  )
  return body
}

/** Sends a code to `email`, reads it from the SMTP sink and verifies it; returns the verification token. */
export async function verifiedEmailToken(t: TestApp, email: string, usage = 'REGISTER'): Promise<string> {
  const captcha = await captchaFor(t.app, 'POST:/v1/auth/verification', { email })
  const sent = await call(t.app, 'POST', '/v1/auth/verification', { captcha, body: { email, usage, target: 'ANY', client_id: 'cumulus-web' } })
  expect(sent.statusCode, sent.body).toBe(200)
  const code = codeIn((await t.mail.next(email)).text)
  const verified = await call(t.app, 'POST', '/v1/auth/verification/verify', { body: { verification_id: sent.json().verification_id, verification_code: code, client_id: 'cumulus-web' } })
  expect(verified.statusCode, verified.body).toBe(200)
  return verified.json().verification_token
}

/** The whole e-mail sign-up over HTTP; returns the token reply. */
export async function signUpByEmail(t: TestApp, email: string, password: string, name = 'Tester') {
  const verificationToken = await verifiedEmailToken(t, email)
  const captcha = await captchaFor(t.app, 'POST:/v1/auth/signup', { email })
  const res = await call(t.app, 'POST', '/v1/auth/signup', { captcha, body: { email, verification_token: verificationToken, password, name, client_id: 'cumulus-web' } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { access_token: string; refresh_token: string; sub: string; expires_in: number }
}

export async function signIn(t: TestApp, username: string, password: string) {
  const captcha = await captchaFor(t.app, 'POST:/v1/auth/signin', { username })
  return call(t.app, 'POST', '/v1/auth/signin', { captcha, body: { username, password, client_id: 'cumulus-web' } })
}
