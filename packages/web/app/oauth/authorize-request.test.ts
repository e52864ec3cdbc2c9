import { ERROR_INFO_TYPE, LOCALIZED_MESSAGE_TYPE, OAuthErrors } from '@cumulus/protocol'
import { IdentityError } from '@cumulus/sdk'
import { describe, expect, it } from 'vitest'
import { deniedRedirectUri, errorRedirect, readAuthorizeRequest } from './authorize-request'
import { destinationOf } from './leave-to'

describe('readAuthorizeRequest', () => {
  it('passes the OAuth query on as the SDK’s parameters, and splits prompt', () => {
    const query = new URLSearchParams({
      client_id: 'tv-app',
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:8123/cb',
      scope: 'openid pan',
      state: 's 1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      nonce: 'n-0S6',
      prompt: 'login  consent',
      unrelated: 'x',
    })
    expect(readAuthorizeRequest(query)).toEqual({
      params: {
        client_id: 'tv-app',
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:8123/cb',
        scope: 'openid pan',
        state: 's 1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        nonce: 'n-0S6',
      },
      prompt: ['login', 'consent'],
    })
  })

  it('sends missing required parameters empty, for the server to name, and leaves absent optional ones out', () => {
    expect(readAuthorizeRequest(new URLSearchParams('client_id=tv-app'))).toEqual({ params: { client_id: 'tv-app', response_type: '', redirect_uri: '' }, prompt: [] })
  })
})

describe('deniedRedirectUri', () => {
  const denied = (metadata: Record<string, string>) =>
    new IdentityError({
      error: OAuthErrors.access_denied.reason,
      errorCode: OAuthErrors.access_denied.code,
      status: 403,
      details: [
        { '@type': LOCALIZED_MESSAGE_TYPE, locale: 'en-US', message: 'The user denied the request' },
        { '@type': ERROR_INFO_TYPE, reason: 'access_denied', domain: 'cumulus', metadata },
      ],
    })

  it('reads the redirect URI of a denial from its ErrorInfo metadata', () => {
    expect(deniedRedirectUri(denied({ redirect_uri: 'http://127.0.0.1:8123/cb?error=access_denied&state=s1' }))).toBe('http://127.0.0.1:8123/cb?error=access_denied&state=s1')
  })

  it('has none for a denial without one, another error, or something that is no error', () => {
    expect(deniedRedirectUri(denied({}))).toBeNull()
    expect(deniedRedirectUri(IdentityError.of(OAuthErrors.invalid_scope))).toBeNull()
    expect(deniedRedirectUri(new Error('offline'))).toBeNull()
    expect(deniedRedirectUri(null)).toBeNull()
  })
})

describe('errorRedirect', () => {
  it('adds the error, the client’s state and the issuer to the checked redirect URI, keeping its query', () => {
    expect(errorRedirect('https://app.example/cb?tenant=7', 'consent_required', 'a b', 'https://drive.example')).toBe('https://app.example/cb?tenant=7&error=consent_required&state=a+b&iss=https%3A%2F%2Fdrive.example')
    expect(errorRedirect('com.example.tv:/oauth', 'login_required', undefined, 'https://drive.example')).toBe('com.example.tv:/oauth?error=login_required&iss=https%3A%2F%2Fdrive.example')
  })
})

describe('destinationOf', () => {
  it('names a web redirect by its host and an app redirect by its scheme', () => {
    expect(destinationOf('http://127.0.0.1:8123/cb?x=1')).toBe('127.0.0.1:8123')
    expect(destinationOf('com.example.tv:/oauth')).toBe('com.example.tv')
  })
})
