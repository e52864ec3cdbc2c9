/** Where the CLI writes and listens. Injected so tests run commands in-process and read the output. */
export interface CliIo {
  stdout: { write(chunk: string): unknown }
  stderr: { write(chunk: string): unknown }
  /** Source of SIGINT/SIGTERM for `serve` (default: the process). */
  signals?: NodeJS.EventEmitter
}

/** A mistake in how the command was called; exits 2 with a pointer to the usage text. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export const EXIT_OK = 0
export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2
