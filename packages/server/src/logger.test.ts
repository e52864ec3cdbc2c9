import { describe, expect, it } from 'vitest'
import { redactRequestUrl } from './logger.js'

describe('redactRequestUrl', () => {
  it('hides bearer secrets in query strings and keeps the rest', () => {
    expect(redactRequestUrl('/v1/user/me?sudo_token=abc123')).toBe('/v1/user/me?sudo_token=***')
    expect(redactRequestUrl('/v1/auth/token/introspect?token=eyJ&client_id=cumulus-web')).toBe('/v1/auth/token/introspect?token=***&client_id=cumulus-web')
    expect(redactRequestUrl('/captcha/challenge?code=1&state=s&client_secret=x')).toBe('/captcha/challenge?code=***&state=s&client_secret=***')
    // A share's pass code in its link, the code and its token in API calls, a signed link's signature.
    expect(redactRequestUrl('/s/VNab?pwd=k3y9zz')).toBe('/s/VNab?pwd=***')
    expect(redactRequestUrl('/drive/v1/share?share_id=VNab&pass_code=k3y9&pass_code_token=1.x')).toBe('/drive/v1/share?share_id=VNab&pass_code=***&pass_code_token=***')
    expect(redactRequestUrl('/drive/v1/share/content/VNab/VNf/a.txt?e=1700000000&s=sig')).toBe('/drive/v1/share/content/VNab/VNf/a.txt?e=1700000000&s=***')
    expect(redactRequestUrl('/v1/user/query?ids=a,b&x=%20')).toBe('/v1/user/query?ids=a,b&x=%20')
    expect(redactRequestUrl('/healthz')).toBe('/healthz')
  })
})
