import type { Redis } from 'ioredis'
import type { InvalidationChannel, SessionInvalidation } from './session-cache.js'

/**
 * Session-cache invalidations through Redis pub/sub, for nodes that share one database and one
 * Redis. Pub/sub needs a connection of its own for the subscription. A node hears its own
 * messages too, which only drops an entry twice.
 */
export class RedisInvalidationChannel implements InvalidationChannel {
  // ioredis is loaded when a channel is made, not when the package is (see RedisCounterStore).
  readonly #publisher: Promise<Redis>
  readonly #subscriber: Promise<Redis>
  readonly #channel: string
  readonly #handlers: ((message: SessionInvalidation) => void)[] = []

  constructor(url: string, channel: string, onError: (err: Error) => void = () => {}) {
    this.#channel = channel
    const connections = import('ioredis').then(({ Redis }) => {
      const publisher = new Redis(url, { maxRetriesPerRequest: 2 })
      const subscriber = new Redis(url, { maxRetriesPerRequest: 2 })
      publisher.on('error', onError)
      subscriber.on('error', onError)
      subscriber.on('message', (from: string, text: string) => {
        if (from !== this.#channel) return
        const message = parseInvalidation(text)
        if (message) for (const handler of this.#handlers) handler(message)
      })
      return { publisher, subscriber }
    })
    this.#publisher = connections.then((c) => c.publisher)
    this.#subscriber = connections.then((c) => c.subscriber)
  }

  /** Resolves once the subscription is live (so a test or the startup can rely on it). */
  async ready(): Promise<void> {
    await (await this.#subscriber).subscribe(this.#channel)
  }

  publish(message: SessionInvalidation): void {
    this.#publisher
      .then((publisher) => publisher.publish(this.#channel, JSON.stringify(message)))
      .catch(() => {
        // Best effort: the other nodes' entries expire on their own within the cache's lifetime.
      })
  }

  subscribe(handler: (message: SessionInvalidation) => void): void {
    this.#handlers.push(handler)
  }

  async close(): Promise<void> {
    const [publisher, subscriber] = await Promise.all([this.#publisher, this.#subscriber])
    await Promise.all([publisher.quit().catch(() => publisher.disconnect()), subscriber.quit().catch(() => subscriber.disconnect())])
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
