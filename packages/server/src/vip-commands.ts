import { parseArgs } from 'node:util'
import { createActivationCodes } from '@cumulus/identity'
import { type CliIo, EXIT_OK, UsageError } from './cli-io.js'
import { CONFIG_FLAG_OPTIONS, loadConfig } from './config.js'
import { wholeNumberFlag, withIdentity } from './user-commands.js'

type Env = Readonly<Record<string, string | undefined>>

/** `cumulus vip codes create …`: membership commands on the configured database. */
export async function vipCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const [group, sub, ...rest] = args
  if (group !== 'codes') throw new UsageError(group === undefined ? 'missing vip command: codes create' : `unknown vip command "${group}": expected codes create`)
  if (sub !== 'create') throw new UsageError(sub === undefined ? 'missing vip codes command: create' : `unknown vip codes command "${sub}": expected create`)
  const { values } = parseArgs({
    args: [...rest],
    options: { ...CONFIG_FLAG_OPTIONS, plan: { type: 'string' }, days: { type: 'string' }, count: { type: 'string' }, 'valid-days': { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: false,
  })
  if (values.plan === undefined || values.days === undefined) throw new UsageError('vip codes create needs --plan P and --days N')
  // Ranges are createActivationCodes' to check; here only "is it a number".
  const days = wholeNumberFlag('days', values.days, 0, 0, Number.MAX_SAFE_INTEGER)
  const count = wholeNumberFlag('count', values.count, 1, 0, Number.MAX_SAFE_INTEGER)
  const validDays = values['valid-days'] === undefined ? undefined : wholeNumberFlag('valid-days', values['valid-days'], 0, 0, Number.MAX_SAFE_INTEGER)
  const config = loadConfig(env, rest)
  const plans = Object.keys(config.identity.plans)
  if (!plans.includes(values.plan)) throw new UsageError(`--plan must be one of ${plans.join(', ')}, not "${values.plan}"`)
  return withIdentity(config, io, async (deps) => {
    const codes = await createActivationCodes(deps, { plan: values.plan!, days, count, ...(validDays === undefined ? {} : { validDays }) })
    // The codes alone on stdout, one per line (or a JSON array), so they can be piped to a file;
    // what they are worth on stderr. They are shown this once: only their hashes are stored.
    io.stdout.write(values.json ? `${JSON.stringify(codes)}\n` : `${codes.join('\n')}\n`)
    io.stderr.write(`Made ${count} ${count === 1 ? 'code' : 'codes'} for ${days} ${days === 1 ? 'day' : 'days'} of ${values.plan}. Keep them safe: they cannot be shown again.\n`)
  }).then(() => EXIT_OK)
}
