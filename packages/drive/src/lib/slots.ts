/**
 * At most `size` pieces of work at once in this process, the rest waiting their turn in order.
 * A finished piece hands its slot straight to the next one waiting, so a caller arriving just then
 * cannot slip in ahead and run one more than `size`.
 */
export class Slots {
  #running = 0
  readonly #waiting: (() => void)[] = []

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    else this.#running++
    try {
      return await work()
    } finally {
      const next = this.#waiting.shift()
      if (next) next()
      else this.#running--
    }
  }
}
