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
 * past the largest declared entry: Node ignores SIGXFSZ, so the kernel refuses the write with
 * EFBIG, which the child reports as an overrun) and `nice`, so a decoder busy on a large
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

export type UnrarListing = { ok: true; entries: UnrarEntry[]; headersEncrypted: boolean; solid: boolean } | { ok: false; failure: UnrarFailure; detail: string }

// CommonJS, evaluated with `node -e`: the same source runs from dist and from the TypeScript
// sources in tests. argv: the node-unrar-js entry, the mode, the archive, the target folder.
// stdin: one JSON object { password, names, maxEntries, maxFileBytes } (names: the entries to
// unpack, or null for all; maxFileBytes: the limit prlimit sets).
const CHILD_SOURCE = `
const { createExtractorFromFile } = require(process.argv[1])
const { statSync } = require('node:fs')
const { join } = require('node:path')
const [mode, archive, target] = process.argv.slice(2)
const say = (value) => process.stdout.write(JSON.stringify(value) + '\\n')
const fail = (reason, detail) => Object.assign(new Error(detail), { reason })
// unrar hands each name (already cleaned of ../ and roots by its own rules) to a function that
// opens the file under the target folder: a name that would still climb out, or is empty, is
// refused before anything is created. The path it gives is the one checked after the file.
let created = null
function safeName(name) {
  const parts = String(name).split('/').filter((part) => part !== '' && part !== '.')
  if (parts.length === 0 || parts.includes('..')) throw fail('ERAR_UNSAFE_NAME', 'an entry name leaves the target folder')
  created = join(target, ...parts)
  return parts.join('/')
}
let input = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk) => (input += chunk))
process.stdin.on('end', async () => {
  try {
    const { password, names, maxEntries, maxFileBytes } = JSON.parse(input)
    const options = { filepath: archive, password: password === '' ? undefined : password, filenameTransform: safeName }
    if (mode === 'list') {
      const extractor = await createExtractorFromFile(options)
      const list = extractor.getFileList()
      const entries = []
      for (const h of list.fileHeaders) {
        entries.push({ name: h.name, sizeBytes: h.unpSize, packedBytes: h.packSize, isDirectory: h.flags.directory, encrypted: h.flags.encrypted })
        // One past the bound says "too many"; the rest is not read.
        if (entries.length > maxEntries) break
      }
      say({ ok: true, entries, headersEncrypted: Boolean(list.arcHeader.flags.headerEncrypted), solid: Boolean(list.arcHeader.flags.solid) })
      return
    }
    const extractor = await createExtractorFromFile({ ...options, targetPath: target })
    // Each chosen name once, at its first entry: a later entry of the same name is not written
    // over it. Once all are out, the rest of the archive is not decoded.
    const chosen = Array.isArray(names) ? new Set(names) : null
    const taken = new Set()
    const pick = (h) => !taken.has(h.name) && chosen.has(h.name) && taken.add(h.name) !== undefined
    const extracted = extractor.extract(chosen ? { files: pick } : {})
    // Lazy: each file is unpacked as the iteration reaches it. Node ignores SIGXFSZ, so a write
    // past the size limit is refused (EFBIG, below) rather than the process killed; and a file
    // that holds more than it declares is an overrun. A link is made in unrar's memory only,
    // and leaves nothing on disk to check (the walk then finds it missing).
    for (const file of extracted.files) {
      const h = file.fileHeader
      if (!h.flags.directory && created !== null) {
        const size = statSync(created, { throwIfNoEntry: false })?.size
        // node-unrar-js does not look at how much a write took: a file cut short by the size
        // limit (or grown past its declaration) shows only in its size.
        if (size !== undefined && size !== h.unpSize) {
          if (size > h.unpSize || size >= maxFileBytes) throw fail('ERAR_OVERRUN', 'an entry holds more than it declares or may')
          throw fail('ERAR_SHORT', 'an entry was cut short')
        }
      }
      created = null
      if (chosen && taken.size === chosen.size) break
    }
    // A chosen name unrar never met (spelt otherwise than the listing had it): nothing to say
    // the password was even tried on it, so this is a failure, never an unchecked success.
    if (chosen && taken.size < chosen.size) throw fail('ERAR_NOT_FOUND', 'an entry to unpack is not in the archive')
    say({ ok: true })
  } catch (err) {
    const reason = err && err.code === 'EFBIG' ? 'ERAR_OVERRUN' : String((err && err.reason) || 'ERAR_UNKNOWN')
    // unrar's own messages only: a file system error's message holds server paths.
    const detail = err && err.reason ? String(err.message).slice(0, 300) : 'unrar stopped' + (err && err.code ? ' (' + err.code + ')' : '')
    say({ ok: false, reason, detail })
    process.exitCode = 3
  }
})
`

const NODE_UNRAR_ENTRY = createRequire(import.meta.url).resolve('node-unrar-js')

/** Of the child's reasons (unrar's ERAR_* and its own), what the caller tells the user. */
export function unrarFailureOf(reason: string, password: string): UnrarFailure | 'overrun' {
  if (reason === 'ERAR_OVERRUN') return 'overrun'
  if (reason === 'ERAR_MISSING_PASSWORD') return 'password_missing'
  if (reason === 'ERAR_BAD_PASSWORD') return 'password_wrong'
  // With the names encrypted, a wrong password shows as headers that fail their checksum.
  if (reason === 'ERAR_BAD_DATA' && password !== '') return 'password_wrong'
  return 'damaged'
}

interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  reply: { ok: boolean; entries?: UnrarEntry[]; headersEncrypted?: boolean; solid?: boolean; reason?: string; detail?: string } | null
  stderr: string
}

/** Starts unrar on `archive`: the process, and its outcome when it ends. */
export function startUnrar(
  mode: 'list' | 'extract',
  archive: string,
  options: { password: string; target?: string; names?: string[] | null; maxFileBytes: number; maxEntries?: number; signal?: AbortSignal | undefined },
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
  child.stdin!.end(JSON.stringify({ password: options.password, names: options.names ?? null, maxEntries: options.maxEntries ?? Number.MAX_SAFE_INTEGER, maxFileBytes: Math.max(1, options.maxFileBytes) }))
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
export async function listWithUnrar(archive: string, password: string, options: { maxEntries?: number; signal?: AbortSignal | undefined } = {}): Promise<UnrarListing> {
  // A listing writes nothing: a one-byte file limit is room enough.
  const { done } = startUnrar('list', archive, { password, maxFileBytes: 1, maxEntries: options.maxEntries, signal: options.signal })
  const result = await done
  if (result.reply?.ok && result.reply.entries) return { ok: true, entries: result.reply.entries, headersEncrypted: result.reply.headersEncrypted === true, solid: result.reply.solid === true }
  const reason = result.reply?.reason ?? 'ERAR_UNKNOWN'
  const failure = unrarFailureOf(reason, password)
  return { ok: false, failure: failure === 'overrun' ? 'damaged' : failure, detail: result.reply?.detail ?? (result.stderr.trim().split('\n').at(-1) || `unrar ended with ${result.code ?? result.signal}`) }
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
  if (result.code === 0 && result.reply?.ok) return null
  const failure = unrarFailureOf(result.reply?.reason ?? 'ERAR_UNKNOWN', options.password)
  if (failure === 'overrun') return { failure, detail: 'the archive holds more than it declares' }
  return { failure, detail: result.reply?.detail ?? (result.stderr.trim().split('\n').at(-1) || `unrar ended with ${result.code ?? result.signal}`) }
}
