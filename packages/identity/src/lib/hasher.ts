import { type HashPool, sharedHashPool } from './hash-pool.js'
import { randomSecret } from './secrets.js'

/** Password hashing. Implementations run off the event loop. */
export interface PasswordHasher {
  /** Returns an encoded hash (PHC string) of `password`. */
  hash(password: string): Promise<string>
  /** True when `password` matches `encoded`; false for a mismatch or an unreadable hash, never throws. */
  verify(encoded: string, password: string): Promise<boolean>
  /**
   * Verifies `password` against a decoy hash and returns false. Called when there is no real hash
   * (unknown user, locked account) so every sign-in path costs exactly one hash.
   */
  verifyDecoy(password: string): Promise<false>
}

export interface Argon2Params {
  memoryCostKiB: number
  timeCost: number
  parallelism: number
}

/** OWASP's argon2id recommendation (m=19 MiB, t=2, p=1). */
export const OWASP_ARGON2ID: Argon2Params = { memoryCostKiB: 19_456, timeCost: 2, parallelism: 1 }

/**
 * argon2id through @node-rs/argon2, on the process's hashing pool (lib/hash-pool): worker
 * threads of their own, one per core, so hashing never blocks the event loop, never takes
 * libuv's threads from file I/O, and a burst of sign-ins never runs more hashes than cores.
 */
export class Argon2Hasher implements PasswordHasher {
  // Made by the first call that needs one, which then costs one hash like every other path.
  #decoy: string | undefined

  constructor(
    private readonly params: Argon2Params = OWASP_ARGON2ID,
    private readonly pool: HashPool = sharedHashPool(),
  ) {}

  async hash(password: string): Promise<string> {
    const { memoryCostKiB, timeCost, parallelism } = this.params
    return (await this.pool.run({ op: 'hash', password, memoryCost: memoryCostKiB, timeCost, parallelism })) as string
  }

  async verify(encoded: string, password: string): Promise<boolean> {
    try {
      return (await this.pool.run({ op: 'verify', encoded, password })) === true
    } catch {
      return false
    }
  }

  async verifyDecoy(password: string): Promise<false> {
    if (this.#decoy === undefined) {
      // Hashing a random secret costs what verifying against a hash of the same parameters does.
      const made = await this.hash(randomSecret()).catch(() => undefined)
      this.#decoy ??= made
      return false
    }
    await this.verify(this.#decoy, password)
    return false
  }
}
