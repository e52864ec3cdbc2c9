import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateSigningJwk } from '@cumulus/identity'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'
import { HMAC_KEY_FILE, ID_TOKEN_KEY_FILE, SIGNING_KEY_FILE, keysDir, loadKeys } from './keys.js'

const modeOf = (path: string) => statSync(path).mode & 0o777

describe('loadKeys', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cumulus-keys-'))
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  it('creates both key files on first start, owner-only, and reuses them afterwards', async () => {
    const config = loadConfig({ CUMULUS_DATA_DIR: dataDir })
    const first = await loadKeys(config)
    const signingPath = join(keysDir(config), SIGNING_KEY_FILE)
    const hmacPath = join(keysDir(config), HMAC_KEY_FILE)
    expect(modeOf(signingPath)).toBe(0o600)
    expect(modeOf(hmacPath)).toBe(0o600)
    expect(modeOf(keysDir(config))).toBe(0o700)
    expect(first.signingJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', d: expect.any(String) })
    expect(first.hmacKey.length).toBe(32)

    const signingFile = readFileSync(signingPath, 'utf8')
    const second = await loadKeys(config)
    expect(second).toEqual(first)
    expect(readFileSync(signingPath, 'utf8')).toBe(signingFile)
  })

  it('creates exactly one key when several starts race for it', async () => {
    const config = loadConfig({ CUMULUS_DATA_DIR: dataDir })
    const results = await Promise.all(Array.from({ length: 8 }, () => loadKeys(config)))
    const privateScalars = new Set(results.map((r) => r.signingJwk.d))
    const hmacs = new Set(results.map((r) => r.hmacKey.toString('hex')))
    expect(privateScalars.size).toBe(1)
    expect(hmacs.size).toBe(1)
    expect(JSON.parse(readFileSync(join(keysDir(config), SIGNING_KEY_FILE), 'utf8')).d).toBe([...privateScalars][0])
    expect(new Set(results.map((r) => r.idTokenJwk?.['d'])).size).toBe(1)
    expect(readdirSync(keysDir(config)).sort()).toEqual([HMAC_KEY_FILE, ID_TOKEN_KEY_FILE, SIGNING_KEY_FILE])
  })

  it('uses JWT_PRIVATE_KEY and CUMULUS_SECRET when set, without writing key files', async () => {
    const jwk = await generateSigningJwk()
    const secret = 's'.repeat(40)
    const config = loadConfig({ CUMULUS_DATA_DIR: dataDir, JWT_PRIVATE_KEY: JSON.stringify(jwk), CUMULUS_SECRET: secret })
    const keys = await loadKeys(config)
    expect(keys.signingJwk).toEqual(jwk)
    expect(keys.hmacKey).toEqual(Buffer.from(secret))
    // Nodes sharing JWT_PRIVATE_KEY sign ID tokens with it unless ID_TOKEN_PRIVATE_KEY is given.
    expect(keys.idTokenJwk).toBeUndefined()
    expect(() => statSync(keysDir(config))).toThrow(/ENOENT/)
  })

  it('tightens a key file that others can read', async () => {
    const config = loadConfig({ CUMULUS_DATA_DIR: dataDir })
    await loadKeys(config)
    const signingPath = join(keysDir(config), SIGNING_KEY_FILE)
    chmodSync(signingPath, 0o644)
    await loadKeys(config)
    expect(modeOf(signingPath)).toBe(0o600)
  })

  it('refuses a damaged key file instead of replacing it (a new key would sign everyone out)', async () => {
    const config = loadConfig({ CUMULUS_DATA_DIR: dataDir })
    await loadKeys(config)
    const signingPath = join(keysDir(config), SIGNING_KEY_FILE)
    writeFileSync(signingPath, '{"kty":"EC"')
    await expect(loadKeys(config)).rejects.toThrow(/signing key file .* is damaged/)
    expect(readFileSync(signingPath, 'utf8')).toBe('{"kty":"EC"')

    rmSync(signingPath)
    writeFileSync(join(keysDir(config), HMAC_KEY_FILE), 'c2hvcnQ\n')
    await expect(loadKeys(config)).rejects.toThrow(/HMAC key file .* is damaged/)
  })
})
