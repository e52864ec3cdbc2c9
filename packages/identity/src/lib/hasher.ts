import { hash, verify } from '@node-rs/argon2'
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

// @node-rs/argon2's Algorithm is an ambient const enum, which isolated modules cannot read: Argon2id is 2.
const ARGON2ID = 2

export interface Argon2Params {
  memoryCostKiB: number
  timeCost: number
  parallelism: number
}

/** OWASP's argon2id recommendation (m=19 MiB, t=2, p=1). */
export const OWASP_ARGON2ID: Argon2Params = { memoryCostKiB: 19_456, timeCost: 2, parallelism: 1 }

/**
 * argon2id through @node-rs/argon2, whose async calls run on libuv's thread pool,
 * so hashing never blocks the event loop.
 */
export class Argon2Hasher implements PasswordHasher {
  // Made once at construction so the first unknown-user sign-in costs one hash like any other.
  private readonly decoy: Promise<string>
  private readonly slots: Slots

  /**
   * `concurrency` caps the hashes running at once (default 3). libuv's pool has four threads
   * (UV_THREADPOOL_SIZE) that file reads and writes, DNS and zlib share: a burst of sign-ins
   * must leave one for them, or every download and upload on the node stalls behind it.
   */
  constructor(
    private readonly params: Argon2Params = OWASP_ARGON2ID,
    concurrency = 3,
  ) {
    this.slots = new Slots(concurrency)
    this.decoy = this.hash(randomSecret())
  }

  hash(password: string): Promise<string> {
    return this.slots.run(() =>
      hash(password, {
        algorithm: ARGON2ID,
        memoryCost: this.params.memoryCostKiB,
        timeCost: this.params.timeCost,
        parallelism: this.params.parallelism,
      }),
    )
  }

  async verify(encoded: string, password: string): Promise<boolean> {
    try {
      return await this.slots.run(() => verify(encoded, password))
    } catch {
      return false
    }
  }

  async verifyDecoy(password: string): Promise<false> {
    // The decoy has the same parameters as real hashes, so it costs the same time.
    await this.verify(await this.decoy, password)
    return false
  }
}

/** At most `size` tasks at once; the rest wait in arrival order. */
class Slots {
  #free: number
  readonly #waiting: (() => void)[] = []

  constructor(size: number) {
    this.#free = size
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--
    else await new Promise<void>((resolve) => this.#waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.#waiting.shift()
      if (next) next()
      else this.#free++
    }
  }
}
