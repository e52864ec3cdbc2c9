/**
 * Fixed-window counters for lockouts, throttles and single-use claims.
 * Every operation is atomic, so a burst of parallel requests sees distinct counts.
 *
 * Operations are applied in the order they are called, even when the caller does not wait for
 * one before calling the next: a caller may issue a sequence at once (Redis then sends it as one
 * pipeline, one round trip) and still rely on its order.
 */
export interface CounterStore {
  /**
   * Adds 1 to `key` and returns the new count and the seconds left in its window.
   * The window starts at the first increment of an absent (or expired) key and lasts `windowSeconds`;
   * later increments do not extend it.
   */
  increment(key: string, windowSeconds: number): Promise<{ count: number; ttlSeconds: number }>
  /** The current count of `key` (0 when absent or expired) and seconds left. Does not mutate. */
  get(key: string): Promise<{ count: number; ttlSeconds: number }>
  /** Subtracts 1 from `key` if it exists and is above 0. No-op for an absent key. */
  decrement(key: string): Promise<void>
  /** Removes `key`. No-op for an absent key. */
  reset(key: string): Promise<void>
  /** Releases connections. */
  close(): Promise<void>
}
