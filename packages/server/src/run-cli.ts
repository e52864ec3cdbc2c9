import { AppError, messageForReason } from '@cumulus/protocol'
import { CONFIG_FLAGS, ConfigError } from './config.js'
import { type CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './cli-io.js'
import { clientCommand } from './client-commands.js'
import { serveCommand } from './serve-command.js'
import { userCommand } from './user-commands.js'
import { vipCommand } from './vip-commands.js'

export { type CliIo, UsageError } from './cli-io.js'

export const USAGE = `Usage: cumulus <command> [options]

Commands:
  serve                                        Serve Cumulus on $PORT (default 3000)
  user create --email E --password P [--name N]
                                               Create a user (no verification, no captcha)
  user list [--limit N] [--offset N] [--json]  List users, oldest first
  user grant-vip <user id or e-mail> --days N [--year]
                                               Grant or extend VIP membership by N days
  user restore <user id or e-mail>             Cancel a pending account deletion
  vip codes create --plan vip --days N [--count N] [--valid-days N] [--json]
                                               Print N activation codes (default 1, valid 365 days)
  client add <id> --name N [--type public|confidential|first_party]
             --redirect-uri U [--redirect-uri U2] [--grant G] [--scope S] [--logo URL] [--json]
                                               Register an OAuth client (prints a confidential client's secret once)
  client list [--json]                         List OAuth clients (configured and registered)
  client remove <id>                           Remove a registered OAuth client
  help                                         Show this text

Configuration comes from environment variables (see README.md). These flags
override them for one command:
${Object.entries(CONFIG_FLAGS)
  .map(([flag, key]) => `  --${`${flag} <value>`.padEnd(24)}${key}`)
  .join('\n')}
`

/**
 * Runs one `cumulus` command and resolves with its exit code: 0 done, 1 failed (an AppError's
 * description, a configuration problem or an unexpected error is printed to stderr), 2 usage.
 */
export async function runCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<number> {
  const [command, ...args] = argv
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(args, env, io)
      case 'user':
        return await userCommand(args, env, io)
      case 'vip':
        return await vipCommand(args, env, io)
      case 'client':
        return await clientCommand(args, env, io)
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(USAGE)
        return EXIT_OK
      case undefined:
        io.stderr.write(USAGE)
        return EXIT_USAGE
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } catch (err) {
    return reportError(err, io)
  }
}

function reportError(err: unknown, io: CliIo): number {
  if (err instanceof UsageError || isParseArgsError(err)) {
    io.stderr.write(`error: ${(err as Error).message}\nRun "cumulus help" for usage.\n`)
    return EXIT_USAGE
  }
  if (err instanceof ConfigError) {
    io.stderr.write(`error: ${err.message}\n`)
    return EXIT_FAILURE
  }
  if (err instanceof AppError) {
    io.stderr.write(`error: ${err.description ?? messageForReason(err.entry.reason, 'en-US') ?? err.entry.reason}\n`)
    return EXIT_FAILURE
  }
  io.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`)
  return EXIT_FAILURE
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')
}
