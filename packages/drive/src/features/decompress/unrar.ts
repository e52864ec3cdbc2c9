import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { ToolMissing } from '../../lib/tools.js'

/**
 * RARLAB's own unrar, compiled to WebAssembly (node-unrar-js), for the RAR 4 archives The
 * Unarchiver cannot open: unar 1.10.1 lists a RAR 4 whose contents are encrypted but fails to
 * decrypt them, and cannot even parse one whose names are encrypted (fixtures/rar/README.md).
 * Decision 028, update of 2026-11-27.
 *
 * It runs in a child Node process of its own, like 7zz and unar: under `prlimit --fsize` (no file
 * past the largest declared entry: Node ignores SIGXFSZ, so the kernel refuses the write, and the
 * child then finds a file whose size is not the declared one) and `nice`, so a decoder busy on a large
 * archive never holds the server's event loop, and its WebAssembly memory is returned when it
 * exits. The password and the chosen names reach it on its standard input, never on the command
 * line (where every local user could read them in /proc).
 */

export type UnrarFailure = 'password_missing' | 'password_wrong' | 'damaged'

export interface UnrarEntry {
  name: string
  sizeBytes: number
  packedBytes: number
  isDirectory: boolean
  encrypted: boolean
}

export type UnrarListing = { ok: true; entries: UnrarEntry[]; headersEncrypted: boolean } | { ok: false; failure: UnrarFailure; detail: string }

// CommonJS, evaluated with `node -e`: the same source runs from dist and from the TypeScript
// sources in tests. argv: the node-unrar-js entry, the mode, the archive, the target folder.
// stdin: one JSON object { password, names } (names: the entries to unpack, or null for all).
const CHILD_SOURCE = `
const { createExtractorFromFile } = require(process.argv[1])
const [mode, archive, target] = process.argv.slice(2)
const say = (value) => process.stdout.write(JSON.stringify(value) + '\\n')
// unrar hands each name to a function that opens the file under the target folder: a name that
// climbs out, or starts at the root, is refused before anything is created.
function safeName(name) {
  const parts = String(name).split('/').filter((part) => part !== '' && part !== '.')
  if (parts.length === 0 || parts.includes('..')) throw Object.assign(new Error('an entry name leaves the target folder'), { reason: 'ERAR_UNSAFE_NAME' })
  return parts.join('/')
}
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk) => (input += chunk))
process.stdin.on('end', async () => {
  try {
    const { password, names } = JSON.parse(input)
    const options = { filepath: archive, password: password === '' ? undefined : password, filenameTransform: safeName }
    if (mode === 'list') {
      const extractor = await createExtractorFromFile(options)
      const list = extractor.getFileList()
      const entries = []
      for (const h of list.fileHeaders) entries.push({ name: h.name, sizeBytes: h.unpSize, packedBytes: h.packSize, isDirectory: h.flags.directory, encrypted: h.flags.encrypted })
      say({ ok: true, entries, headersEncrypted: Boolean(list.arcHeader.flags.headerEncrypted) })
    } else {
      const extractor = await createExtractorFromFile({ ...options, targetPath: target })
      const chosen = Array.isArray(names) ? new Set(names) : null
      const extracted = extractor.extract(chosen ? { files: (h) => chosen.has(h.name) } : {})
      // Lazy: each file is unpacked as the iteration reaches it. Node ignores SIGXFSZ, so a file
      // stopped at the size limit is a short write, not a killed process: every file must hold
      // exactly what it declares, or the archive held more than it said.
      const { statSync } = require('node:fs')
      const { join } = require('node:path')
      for (const file of extracted.files) {
        const h = file.fileHeader
        if (h.flags.directory) continue
        const size = statSync(join(target, safeName(h.name)), { throwIfNoEntry: false })?.size
        if (size !== h.unpSize) throw Object.assign(new Error(h.name + ' holds ' + size + ' bytes, not the ' + h.unpSize + ' it declares'), { reason: 'ERAR_OVERRUN' })
      }
      say({ ok: true })
    }
  } catch (err) {
    say({ ok: false, reason: String((err && err.reason) || 'ERAR_UNKNOWN'), detail: String((err && err.message) || err).slice(0, 300) })
    process.exitCode = 3
  }
})
`

const NODE_UNRAR_ENTRY = createRequire(import.meta.url).resolve('node-unrar-js')

/** Of unrar's reasons (ERAR_*), what the caller tells the user. */
function failureOf(reason: string, password: string): UnrarFailure {
  if (reason === 'ERAR_MISSING_PASSWORD') return 'password_missing'
  if (reason === 'ERAR_BAD_PASSWORD') return 'password_wrong'
  // With the names encrypted, a wrong password shows as headers that fail their checksum.
  if (reason === 'ERAR_BAD_DATA' && password !== '') return 'password_wrong'
  return 'damaged'
}

interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  reply: { ok: boolean; entries?: UnrarEntry[]; headersEncrypted?: boolean; reason?: string; detail?: string } | null
  stderr: string
}

/** Starts unrar on `archive`: the process, and its outcome when it ends. */
export function startUnrar(
  mode: 'list' | 'extract',
  archive: string,
  options: { password: string; target?: string; names?: string[] | null; maxFileBytes: number; signal?: AbortSignal | undefined },
): { child: ReturnType<typeof spawn>; done: Promise<RunResult> } {
  const args = [`--fsize=${Math.max(1, options.maxFileBytes)}`, '--', 'nice', '-n', '10', process.execPath, '-e', CHILD_SOURCE, NODE_UNRAR_ENTRY, mode, archive, options.target ?? '']
  const child = spawn('prlimit', args, { stdio: ['pipe', 'pipe', 'pipe'], ...(options.signal ? { signal: options.signal } : {}) })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8')
  child.stderr!.setEncoding('utf8')
  // A listing of the most entries allowed is a few tens of MB at most; past 64 MB it is not ours.
  child.stdout!.on('data', (chunk: string) => {
    if (stdout.length < 64 * 1024 * 1024) stdout += chunk
    else child.kill('SIGKILL')
  })
  child.stderr!.on('data', (chunk: string) => {
    if (stderr.length < 16 * 1024) stderr += chunk
  })
  child.stdin!.on('error', () => {})
  child.stdin!.end(JSON.stringify({ password: options.password, names: options.names ?? null }))
  const done = new Promise<RunResult>((resolve, reject) => {
    // Not the error itself: nothing of the password is in it, but the arguments are long.
    child.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new ToolMissing('prlimit') : err.name === 'AbortError' ? err : new Error(`unrar could not be started (${err.code ?? err.message})`)))
    child.once('close', (code, signal) => {
      let reply: RunResult['reply'] = null
      try {
        reply = JSON.parse(stdout.trim().split('\n').at(-1) ?? '')
      } catch {
        reply = null
      }
      resolve({ code, signal, reply, stderr })
    })
  })
  return { child, done }
}

/** Lists a RAR with unrar; the password checks what it can (names encrypted: all of it). */
export async function listWithUnrar(archive: string, password: string, signal?: AbortSignal): Promise<UnrarListing> {
  // A listing writes nothing: a one-byte file limit is room enough.
  const { done } = startUnrar('list', archive, { password, maxFileBytes: 1, signal })
  const result = await done
  if (result.reply?.ok && result.reply.entries) return { ok: true, entries: result.reply.entries, headersEncrypted: result.reply.headersEncrypted === true }
  const reason = result.reply?.reason ?? 'ERAR_UNKNOWN'
  return { ok: false, failure: failureOf(reason, password), detail: result.reply?.detail ?? (result.stderr.trim().split('\n').at(-1) || `unrar ended with ${result.code ?? result.signal}`) }
}

/**
 * Unpacks `names` (or all) into `target`. Resolves with null when it worked, else why not;
 * `overrun` when the kernel stopped a file growing past `maxFileBytes`.
 */
export async function extractWithUnrar(
  archive: string,
  options: { password: string; target: string; names: string[] | null; maxFileBytes: number; signal?: AbortSignal; onStart?: (child: ReturnType<typeof spawn>) => void },
): Promise<{ failure: UnrarFailure | 'overrun'; detail: string } | null> {
  const { child, done } = startUnrar('extract', archive, options)
  options.onStart?.(child)
  const result = await done
  if (result.signal === 'SIGXFSZ' || result.reply?.reason === 'ERAR_OVERRUN') return { failure: 'overrun', detail: 'the archive holds more than it declares' }
  if (result.code === 0 && result.reply?.ok) return null
  const reason = result.reply?.reason ?? 'ERAR_UNKNOWN'
  return { failure: failureOf(reason, options.password), detail: result.reply?.detail ?? (result.stderr.trim().split('\n').at(-1) || `unrar ended with ${result.code ?? result.signal}`) }
}
