import { describe, expect, it } from 'vitest'
import { redactRequestUrl } from './logger.js'

describe('redactRequestUrl', () => {
  it('hides bearer secrets in query strings and keeps the rest', () => {
    expect(redactRequestUrl('/v1/user/me?sudo_token=abc123')).toBe('/v1/user/me?sudo_token=***')
    expect(redactRequestUrl('/v1/auth/token/introspect?token=eyJ&client_id=cumulus-web')).toBe('/v1/auth/token/introspect?token=***&client_id=cumulus-web')
    expect(redactRequestUrl('/captcha/challenge?code=1&state=s&client_secret=x')).toBe('/captcha/challenge?code=***&state=s&client_secret=***')
    expect(redactRequestUrl('/v1/user/query?ids=a,b&x=%20')).toBe('/v1/user/query?ids=a,b&x=%20')
    expect(redactRequestUrl('/healthz')).toBe('/healthz')
  })
})
