import { ERROR_INFO_TYPE, LOCALIZED_MESSAGE_TYPE, findErrorByReason } from '@cumulus/protocol'
import { expect } from 'vitest'

/** An error reply as a test saw it, from app.inject or a raw socket. */
export interface ErrorReply {
  status: number
  contentType: unknown
  text: string
}

/**
 * Asserts the reply is the contract's error body (identity.md "Error body"), exactly, for the
 * catalogue entry its `error` names, with that entry's code and HTTP status. Returns the body.
 */
export function expectCatalogueError(reply: ErrorReply, domain: string | RegExp, context: string): Record<string, unknown> {
  expect(reply.contentType, context).toBe('application/json; charset=utf-8')
  const body = JSON.parse(reply.text) as Record<string, unknown>
  expect(body, context).toEqual({
    error: expect.any(String),
    error_code: expect.any(Number),
    error_description: expect.any(String),
    error_uri: '',
    details: [
      { '@type': ERROR_INFO_TYPE, reason: expect.any(String), domain: typeof domain === 'string' ? domain : expect.stringMatching(domain), metadata: expect.any(Object) },
      { '@type': LOCALIZED_MESSAGE_TYPE, locale: expect.any(String), message: expect.any(String) },
    ],
  })
  const entry = findErrorByReason(body.error as string)
  expect({ code: entry?.code, status: entry?.status }, context).toEqual({ code: body.error_code, status: reply.status })
  return body
}
