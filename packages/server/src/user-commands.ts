import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import {
  type IdentityDeps,
  MemoryCounterStore,
  type UserRecord,
  createUserByOperator,
  generateSigningJwk,
  grantVip,
  listUsers,
  restoreUser,
  systemClock,
} from '@cumulus/identity'
import { CONFIG_FLAG_OPTIONS, type CumulusConfig, loadConfig } from './config.js'
import { createLogger } from './logger.js'
import { openIdentity } from './open-identity.js'
import { type CliIo, EXIT_OK, UsageError } from './cli-io.js'

type Env = Readonly<Record<string, string | undefined>>

const DEFAULT_LIST_LIMIT = 50
const MAX_LIST_LIMIT = 10_000

/** `cumulus user <create|list|grant-vip|restore> …`: operator commands on the configured database. */
export async function userCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const [sub, ...rest] = args
  switch (sub) {
    case 'create':
      return createCommand(rest, env, io)
    case 'list':
      return listCommand(rest, env, io)
    case 'grant-vip':
      return grantVipCommand(rest, env, io)
    case 'restore':
      return restoreCommand(rest, env, io)
    case undefined:
      throw new UsageError('missing user command: create, list, grant-vip or restore')
    default:
      throw new UsageError(`unknown user command "${sub}": expected create, list, grant-vip or restore`)
  }
}

async function createCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { ...CONFIG_FLAG_OPTIONS, email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  })
  if (!values.email || !values.password) throw new UsageError('user create needs --email and --password')
  const { email, password, name } = values
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    const user = await createUserByOperator(deps, { email, password, name })
    io.stdout.write(`Created user ${user.id} (${user.email}, name "${user.name}").\nThey can sign in now with this e-mail address and password.\n`)
  })
}

async function listCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { ...CONFIG_FLAG_OPTIONS, limit: { type: 'string' }, offset: { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: false,
  })
  const limit = wholeNumberFlag('limit', values.limit, DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT)
  const offset = wholeNumberFlag('offset', values.offset, 0, 0, Number.MAX_SAFE_INTEGER)
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    const users = await listUsers(deps, { limit, offset })
    if (values.json) {
      io.stdout.write(`${JSON.stringify(users.map(toListedUser), null, 2)}\n`)
      return
    }
    if (users.length === 0) {
      io.stdout.write(offset > 0 ? `No users after the first ${offset}.\n` : 'No users yet. Create one with: cumulus user create --email E --password P\n')
      return
    }
    io.stdout.write(formatTable(['ID', 'SIGN-IN', 'NAME', 'STATUS', 'CREATED'], users.map(userRow)))
    if (users.length === limit) io.stdout.write(`Showing ${limit} users from offset ${offset}; use --offset ${offset + limit} for more.\n`)
  })
}

async function grantVipCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { ...CONFIG_FLAG_OPTIONS, days: { type: 'string' }, year: { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: true,
  })
  const user = singleUserArgument('grant-vip', positionals)
  if (values.days === undefined) throw new UsageError('user grant-vip needs --days N')
  // Range checks (1 to 36500) are grantVip's; here only "is it a number".
  if (!/^\d+$/.test(values.days)) throw new UsageError(`--days must be a whole number, not "${values.days}"`)
  const days = Number(values.days)
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    const granted = await grantVip(deps, { user, days, year: values.year })
    const plan = granted.membership.isYear ? 'yearly' : 'monthly'
    io.stdout.write(
      `Granted ${days} ${days === 1 ? 'day' : 'days'} of VIP to ${describeUser(granted.user)}.\n` +
        `The ${plan} membership now expires ${new Date(granted.membership.expiresAtMs).toISOString()}.\n`,
    )
  })
}

async function restoreCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args: [...args], options: { ...CONFIG_FLAG_OPTIONS }, strict: true, allowPositionals: true })
  const user = singleUserArgument('restore', positionals)
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    const restored = await restoreUser(deps, user)
    io.stdout.write(`Restored ${describeUser(restored)}: the pending deletion is cancelled and the account is active again.\n`)
  })
}

/**
 * Runs `body` with identity deps on the configured database (migrated first, so the commands
 * work before the first `serve`). Operator commands issue no tokens, so they use throwaway keys
 * and never create key files, and in-process counters rather than Redis.
 */
export async function withIdentity(config: CumulusConfig, io: CliIo, body: (deps: IdentityDeps) => Promise<void>): Promise<number> {
  // Operator commands print their own results; the log (on stderr) shows only problems unless
  // LOG_LEVEL asks for more (debug, trace) or less (error, fatal, silent).
  const logger = createLogger({ logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel }, io.stderr)
  const counters = new MemoryCounterStore(systemClock)
  try {
    const identity = await openIdentity({
      config,
      logger,
      counters,
      keys: { signingJwk: await generateSigningJwk(), hmacKey: randomBytes(32) },
    })
    try {
      await body(identity.deps)
    } finally {
      await identity.close()
    }
  } finally {
    await counters.close()
  }
  return EXIT_OK
}

function singleUserArgument(command: string, positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`user ${command} takes exactly one user id or e-mail address`)
  return positionals[0]!
}

export function wholeNumberFlag(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!(value >= min && value <= max)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${raw}"`)
  return value
}

function describeUser(user: UserRecord): string {
  const address = signInName(user)
  return address === '-' ? user.id : `${address} (${user.id})`
}

function signInName(user: UserRecord): string {
  return user.email ?? user.phoneNumber ?? user.username ?? (user.anonymous ? '(anonymous)' : '-')
}

function userRow(user: UserRecord): string[] {
  const status = user.status === 'FROZEN' && user.eraseAtMs !== null ? `pending deletion (erased ${isoMinute(user.eraseAtMs)})` : user.status.toLowerCase()
  return [user.id, signInName(user), user.name, status, isoMinute(user.createdAtMs)]
}

/** What `user list --json` prints: never the password hash. */
function toListedUser(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    phone_number: user.phoneNumber,
    username: user.username,
    name: user.name,
    status: user.status,
    anonymous: user.anonymous,
    has_password: user.passwordHash !== null,
    created_at: new Date(user.createdAtMs).toISOString(),
    deletion_requested_at: user.deletionRequestedAtMs === null ? null : new Date(user.deletionRequestedAtMs).toISOString(),
    erase_at: user.eraseAtMs === null ? null : new Date(user.eraseAtMs).toISOString(),
  }
}

function isoMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`
}

function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => `${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`
  return [header, ...rows].map(line).join('')
}
