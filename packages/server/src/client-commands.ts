import { parseArgs } from 'node:util'
import { type ClientType, CLIENT_TYPES, addClient, listClients, removeClient } from '@cumulus/identity'
import { type CliIo, EXIT_OK, UsageError } from './cli-io.js'
import { CONFIG_FLAG_OPTIONS, loadConfig } from './config.js'
import { withIdentity } from './user-commands.js'

type Env = Readonly<Record<string, string | undefined>>

/** `cumulus client <add|list|remove> …`: OAuth clients registered in the database (third-party apps). */
export async function clientCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const [sub, ...rest] = args
  switch (sub) {
    case 'add':
      return addCommand(rest, env, io)
    case 'list':
      return listCommand(rest, env, io)
    case 'remove':
      return removeCommand(rest, env, io)
    case undefined:
      throw new UsageError('missing client command: add, list or remove')
    default:
      throw new UsageError(`unknown client command "${sub}": expected add, list or remove`)
  }
}

async function addCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      ...CONFIG_FLAG_OPTIONS,
      name: { type: 'string' },
      type: { type: 'string', default: 'public' },
      'redirect-uri': { type: 'string', multiple: true },
      grant: { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
      logo: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  })
  const [clientId, extra] = positionals
  if (!clientId || extra !== undefined) throw new UsageError('client add needs exactly one client id: cumulus client add <id> --name N [--type public|confidential|first_party] --redirect-uri U …')
  if (!CLIENT_TYPES.includes(values.type as ClientType)) throw new UsageError(`--type must be one of ${CLIENT_TYPES.join(', ')}`)
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    const { client, secret } = await addClient(deps, {
      clientId,
      name: values.name ?? clientId,
      type: values.type as ClientType,
      redirectUris: values['redirect-uri'] ?? [],
      grantTypes: values.grant,
      scopes: (values.scope ?? []).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean),
      logo: values.logo,
    })
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ client_id: client.clientId, ...(secret ? { client_secret: secret } : {}), type: client.type, redirect_uris: client.redirectUris, grant_types: client.grantTypes, scopes: client.scopes })}\n`)
    } else {
      io.stdout.write(`Registered ${client.type} client ${client.clientId} ("${client.name}").\n`)
      io.stdout.write(`  redirect URIs: ${client.redirectUris.join(' ') || '(none)'}\n  grant types:   ${client.grantTypes.join(' ')}\n  scopes:        ${(client.scopes ?? []).join(' ')}\n`)
      if (secret) io.stdout.write(`  client secret: ${secret}\nKeep the secret safe: it cannot be shown again.\n`)
      else io.stdout.write('It has no secret: it must use PKCE (S256), and refreshes tokens with its client id alone.\n')
    }
  }).then(() => EXIT_OK)
}

async function listCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { ...CONFIG_FLAG_OPTIONS, json: { type: 'boolean', default: false } }, strict: true, allowPositionals: false })
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    const all = await listClients(deps)
    if (values.json) {
      io.stdout.write(`${JSON.stringify(all.map(({ client, source }) => ({ client_id: client.clientId, name: client.name, type: client.type ?? 'first_party', source, redirect_uris: client.redirectUris, grant_types: client.grantTypes, scopes: client.scopes ?? [] })))}\n`)
      return
    }
    for (const { client, source } of all) {
      io.stdout.write(`${client.clientId}\t${client.type ?? 'first_party'}\t${source}\t${client.name}\t${client.redirectUris.join(' ')}\n`)
    }
  }).then(() => EXIT_OK)
}

async function removeCommand(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { positionals } = parseArgs({ args: [...args], options: { ...CONFIG_FLAG_OPTIONS }, strict: true, allowPositionals: true })
  const [clientId, extra] = positionals
  if (!clientId || extra !== undefined) throw new UsageError('client remove needs exactly one client id')
  return withIdentity(loadConfig(env, args), io, async (deps) => {
    await removeClient(deps, clientId)
    io.stdout.write(`Removed client ${clientId}. Nodes stop accepting it within 30 seconds.\n`)
  }).then(() => EXIT_OK)
}
