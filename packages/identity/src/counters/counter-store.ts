/**
 * Fixed-window counters for lockouts, throttles and single-use claims.
 * Every operation is atomic, so a burst of parallel requests sees distinct counts.
 *
 * Operations are applied in the order they are called, even when the caller does not wait for
 * one before calling the next: a caller may issue a sequence at once (Redis then sends it as one
 * pipeline, one round trip) and still rely on its order.
 */
/** One step of a batch (CounterStore.batch): the same operations as the single calls. */
export type CounterOp =
  | { op: 'increment'; key: string; windowSeconds: number }
  | { op: 'get'; key: string }
  | { op: 'decrement'; key: string }
  | { op: 'reset'; key: string }

export interface CounterReading {
  count: number
  ttlSeconds: number
}

export interface CounterStore {
  /**
   * Adds 1 to `key` and returns the new count and the seconds left in its window.
   * The window starts at the first increment of an absent (or expired) key and lasts `windowSeconds`;
   * later increments do not extend it.
   */
  increment(key: string, windowSeconds: number): Promise<CounterReading>
  /** The current count of `key` (0 when absent or expired) and seconds left. Does not mutate. */
  get(key: string): Promise<CounterReading>
  /** Subtracts 1 from `key` if it exists and is above 0. No-op for an absent key. */
  decrement(key: string): Promise<void>
  /** Removes `key`. No-op for an absent key. */
  reset(key: string): Promise<void>
  /**
   * Applies `ops` in order as one atomic step: no other call sees a state between two of them.
   * Returns one entry per op: the reading for `increment` and `get` (as the single calls give
   * it), null for `decrement` and `reset`. Redis runs a batch as one script, one command: a
   * password check's steps cost one command each side of the hash instead of one per key.
   */
  batch(ops: readonly CounterOp[]): Promise<(CounterReading | null)[]>
  /** Releases connections. */
  close(): Promise<void>
}
