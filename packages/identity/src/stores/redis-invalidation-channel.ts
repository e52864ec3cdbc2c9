import { Redis } from 'ioredis'
import type { InvalidationChannel, SessionInvalidation } from './session-cache.js'

/**
 * Session-cache invalidations through Redis pub/sub, for nodes that share one database and one
 * Redis. Pub/sub needs a connection of its own for the subscription. A node hears its own
 * messages too, which only drops an entry twice.
 */
export class RedisInvalidationChannel implements InvalidationChannel {
  readonly #publisher: Redis
  readonly #subscriber: Redis
  readonly #channel: string
  readonly #handlers: ((message: SessionInvalidation) => void)[] = []

  constructor(url: string, channel: string, onError: (err: Error) => void = () => {}) {
    this.#channel = channel
    this.#publisher = new Redis(url, { maxRetriesPerRequest: 2 })
    this.#subscriber = new Redis(url, { maxRetriesPerRequest: 2 })
    this.#publisher.on('error', onError)
    this.#subscriber.on('error', onError)
    this.#subscriber.on('message', (from: string, text: string) => {
      if (from !== this.#channel) return
      const message = parseInvalidation(text)
      if (message) for (const handler of this.#handlers) handler(message)
    })
  }

  /** Resolves once the subscription is live (so a test or the startup can rely on it). */
  async ready(): Promise<void> {
    await this.#subscriber.subscribe(this.#channel)
  }

  publish(message: SessionInvalidation): void {
    this.#publisher.publish(this.#channel, JSON.stringify(message)).catch(() => {
      // Best effort: the other nodes' entries expire on their own within the cache's lifetime.
    })
  }

  subscribe(handler: (message: SessionInvalidation) => void): void {
    this.#handlers.push(handler)
  }

  async close(): Promise<void> {
    await Promise.all([this.#publisher.quit().catch(() => this.#publisher.disconnect()), this.#subscriber.quit().catch(() => this.#subscriber.disconnect())])
  }
}

function parseInvalidation(text: string): SessionInvalidation | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>
    if (typeof value.sessionId === 'string') return { sessionId: value.sessionId }
    if (typeof value.userId === 'string') return { userId: value.userId }
  } catch {
    // Not ours: ignore.
  }
  return null
}
