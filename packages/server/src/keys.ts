import { randomBytes } from 'node:crypto'
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { generateIdTokenJwk, generateSigningJwk } from '@cumulus/identity'
import type { Logger } from 'pino'
import { type CumulusConfig, type SigningJwk, isConsistentEcKey } from './config.js'

/** Key material the server signs with. Never logged. */
export interface ServerKeys {
  /** ES256 private key for access tokens. */
  signingJwk: SigningJwk
  /** HMAC key for captcha tokens and challenges (32 bytes or more). */
  hmacKey: Buffer
  /** RS256 private key for OpenID Connect ID tokens. */
  idTokenJwk?: Record<string, unknown>
}

export const SIGNING_KEY_FILE = 'jwt-signing.jwk'
export const HMAC_KEY_FILE = 'hmac.key'
export const ID_TOKEN_KEY_FILE = 'id-token-rsa.jwk'
const HMAC_KEY_BYTES = 32
const OWNER_ONLY_FILE = 0o600
const OWNER_ONLY_DIR = 0o700

/** The directory holding generated keys. */
export function keysDir(config: Pick<CumulusConfig, 'dataDir'>): string {
  return join(config.dataDir, 'keys')
}

/**
 * The signing and HMAC keys: from JWT_PRIVATE_KEY / CUMULUS_SECRET when set, else from
 * `$CUMULUS_DATA_DIR/keys/`, generating each file on first start (mode 0600) and reusing it
 * afterwards, so tokens and captcha tokens survive restarts. A damaged key file is an error,
 * never silently replaced: replacing it would sign every user out.
 */
export async function loadKeys(config: Pick<CumulusConfig, 'dataDir' | 'jwtPrivateKey' | 'secret' | 'idTokenPrivateKey'>, logger?: Logger): Promise<ServerKeys> {
  const dir = keysDir(config)
  const signingJwk =
    config.jwtPrivateKey ??
    parseSigningJwk(await readOrCreate(join(dir, SIGNING_KEY_FILE), async () => `${JSON.stringify(await generateSigningJwk())}\n`, logger), join(dir, SIGNING_KEY_FILE))
  const hmacKey = config.secret
    ? Buffer.from(config.secret, 'utf8')
    : parseHmacKey(await readOrCreate(join(dir, HMAC_KEY_FILE), async () => `${randomBytes(HMAC_KEY_BYTES).toString('base64url')}\n`, logger), join(dir, HMAC_KEY_FILE))
  // Several nodes sharing JWT_PRIVATE_KEY must share the ID-token key too: without
  // ID_TOKEN_PRIVATE_KEY they sign ID tokens with the shared EC key (ES256) rather than each
  // with a key file of its own that the others' JWKS would not hold.
  const idTokenJwk =
    config.idTokenPrivateKey ??
    (config.jwtPrivateKey
      ? undefined
      : parseIdTokenJwk(await readOrCreate(join(dir, ID_TOKEN_KEY_FILE), async () => `${JSON.stringify(await generateIdTokenJwk())}\n`, logger), join(dir, ID_TOKEN_KEY_FILE)))
  return { signingJwk, hmacKey, ...(idTokenJwk ? { idTokenJwk } : {}) }
}

function parseIdTokenJwk(content: string, path: string): Record<string, unknown> {
  try {
    const jwk = JSON.parse(content) as Record<string, unknown>
    if (jwk['kty'] !== 'RSA' || typeof jwk['d'] !== 'string') throw new Error('not an RSA private key')
    return jwk
  } catch (err) {
    throw new Error(`the ID-token key file ${path} is damaged (${(err as Error).message}); restore it from a backup, or delete it to generate a new key (ID tokens already issued stop verifying)`)
  }
}

/**
 * The file's content, creating it with `generate()` when absent. The file appears atomically
 * and only once: it is written under a temporary name and hard-linked into place, which fails
 * when another process (the CLI, a second node on shared storage) got there first; then that
 * process's key is used.
 */
async function readOrCreate(path: string, generate: () => Promise<string>, logger: Logger | undefined): Promise<string> {
  const existing = await readKeyFile(path, logger)
  if (existing !== null) return existing
  await mkdir(dirname(path), { recursive: true, mode: OWNER_ONLY_DIR })
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temp, await generate(), { mode: OWNER_ONLY_FILE, flag: 'wx' })
  try {
    await link(temp, path)
    logger?.info({ path }, 'generated a new key file')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    await unlink(temp)
  }
  const created = await readKeyFile(path, logger)
  if (created === null) throw new Error(`key file ${path} vanished while it was being created`)
  return created
}

async function readKeyFile(path: string, logger: Logger | undefined): Promise<string | null> {
  let content: string
  try {
    content = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  const { mode } = await stat(path)
  if ((mode & 0o077) !== 0) {
    // Anyone who can read these keys can mint access tokens; tighten a copied or restored file.
    await chmod(path, OWNER_ONLY_FILE)
    logger?.warn({ path, mode: (mode & 0o777).toString(8) }, 'key file was readable by others; its mode is now 0600')
  }
  return content
}

function parseSigningJwk(content: string, path: string): SigningJwk {
  try {
    const jwk = JSON.parse(content) as SigningJwk
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') throw new Error('not an EC P-256 private key')
    if (!isConsistentEcKey(jwk)) throw new Error('d does not match x and y')
    return jwk
  } catch (err) {
    throw new Error(`the signing key file ${path} is damaged (${(err as Error).message}); restore it from a backup, or delete it to generate a new key (this signs every user out)`)
  }
}

function parseHmacKey(content: string, path: string): Buffer {
  const key = Buffer.from(content.trim(), 'base64url')
  if (key.length < HMAC_KEY_BYTES) {
    throw new Error(`the HMAC key file ${path} is damaged (fewer than ${HMAC_KEY_BYTES} bytes); restore it from a backup, or delete it to generate a new key (open captcha tokens stop working)`)
  }
  return key
}
