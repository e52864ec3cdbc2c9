/** Time source. Injected so tests cross expiry boundaries without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number
}

export const systemClock: Clock = { nowMs: () => Date.now() }

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private currentMs = Date.UTC(2026, 0, 1)) {}
  nowMs(): number {
    return this.currentMs
  }
  advanceSeconds(seconds: number): void {
    this.currentMs += seconds * 1000
  }
  set(ms: number): void {
    this.currentMs = ms
  }
}

export function toRfc3339(ms: number): string {
  return new Date(ms).toISOString()
}
