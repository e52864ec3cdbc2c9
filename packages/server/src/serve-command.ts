import { parseArgs } from 'node:util'
import { CONFIG_FLAG_OPTIONS, loadConfig } from './config.js'
import { type CliIo, EXIT_FAILURE, EXIT_OK } from './cli-io.js'
import { createLogger } from './logger.js'
import { buildServer } from './server.js'

/** In-flight requests get this long to finish after SIGINT/SIGTERM before the process gives up on them. */
export const SHUTDOWN_TIMEOUT_MS = 10_000

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * `cumulus serve`: builds the server, listens on HOST:PORT and resolves with the exit code once
 * a SIGINT or SIGTERM has shut it down gracefully (stop accepting, finish in-flight requests,
 * close the database). A second signal, or a shutdown slower than SHUTDOWN_TIMEOUT_MS, gives up
 * waiting and resolves with 1.
 */
export async function serveCommand(args: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<number> {
  parseArgs({ args: [...args], options: CONFIG_FLAG_OPTIONS, strict: true, allowPositionals: false })
  const config = loadConfig(env, args)
  const logger = createLogger(config, io.stdout)
  const server = await buildServer(config, { logger })
  try {
    await server.app.listen({ port: config.port, host: config.host })
  } catch (err) {
    await server.close()
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new Error(`cannot listen on ${config.host}:${config.port}: the port is in use; set PORT (or --port) to a free one`, { cause: err })
    if (code === 'EACCES') throw new Error(`cannot listen on ${config.host}:${config.port}: permission denied; ports below 1024 need privileges`, { cause: err })
    throw err
  }

  const signals = io.signals ?? process
  return new Promise<number>((resolve) => {
    let shuttingDown = false
    const finish = (code: number) => {
      for (const signal of SHUTDOWN_SIGNALS) signals.removeListener(signal, onSignal)
      resolve(code)
    }
    function onSignal(signal: string) {
      if (shuttingDown) {
        logger.warn({ signal }, 'second signal: exiting without waiting for the shutdown to finish')
        finish(EXIT_FAILURE)
        return
      }
      shuttingDown = true
      logger.info({ signal }, 'shutting down: finishing in-flight requests')
      const timer = setTimeout(() => {
        logger.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting anyway')
        finish(EXIT_FAILURE)
      }, SHUTDOWN_TIMEOUT_MS)
      timer.unref()
      server.close().then(
        () => {
          clearTimeout(timer)
          logger.info('stopped')
          finish(EXIT_OK)
        },
        (err: unknown) => {
          clearTimeout(timer)
          logger.error({ err }, 'error while shutting down')
          finish(EXIT_FAILURE)
        },
      )
    }
    for (const signal of SHUTDOWN_SIGNALS) signals.on(signal, onSignal)
  })
}
