// Shared benchmark plumbing: settings from the environment, the out-of-process load generator,
// in-process raw loops, and the result table.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer as createNetServer } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)))
const LOAD_SCRIPT = join(BENCH_DIR, 'load.mjs')

function positiveNumber(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`)
  return value
}

/** Settings shared by every benchmark (env overrides). */
export function commonSettings() {
  const seconds = positiveNumber('BENCH_SECONDS', 5)
  if (seconds <= 0) throw new Error('BENCH_SECONDS must be > 0')
  const connections = Math.floor(positiveNumber('BENCH_CONNECTIONS', 16))
  if (connections < 1) throw new Error('BENCH_CONNECTIONS must be >= 1')
  return {
    seconds,
    warmupSeconds: positiveNumber('BENCH_WARMUP_SECONDS', 1),
    connections,
  }
}

/**
 * Runs bench/load.mjs in a child process (the load never shares the server's event loop) and
 * returns its JSON: { warmup, main, failures }.
 */
export function runLoad(spec) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD_SCRIPT, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    const limitMs = ((spec.warmupSeconds ?? 0) + spec.seconds + 60) * 1000
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) return reject(new Error(`load generator exited with ${signal ?? code}: ${err.trim() || out.trim()}`))
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()))
      } catch (e) {
        reject(new Error(`load generator printed no JSON result: ${out.slice(0, 500)} ${err.slice(0, 500)}`, { cause: e }))
      }
    })
  })
}

/** CPU used by each thread of this process so far (Linux /proc/self/task, in ms), or null elsewhere. */
export function threadCpu() {
  try {
    const threads = new Map()
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
        threads.set(Number(tid), { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 })
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return threads
  } catch {
    return null
  }
}

/** Machine-wide CPU counters (Linux /proc/stat, in ms), or null elsewhere. */
export function machineCpu() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
    const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields.map(Number)
    const tick = 10 // USER_HZ is 100 on Linux
    return { busyMs: (user + nice + system + irq + softirq) * tick, idleMs: (idle + iowait) * tick, stealMs: steal * tick, at: performance.now() }
  } catch {
    return null
  }
}

/**
 * Runs `run()` and accounts for the CPU used meanwhile: this process (server or raw baseline,
 * all threads), the load generator child (`result.loadGeneratorCpuMs`), and everything else on
 * the machine (`otherShare`: other processes, including PostgreSQL/Redis when they are used),
 * plus hypervisor steal. Adds `cpu` to the result.
 */
export async function withCpuAccounting(run, cpuCount) {
  const machineBefore = machineCpu()
  const threadsBefore = threadCpu()
  const before = process.cpuUsage()
  const result = await run()
  const used = process.cpuUsage(before)
  const threadsAfter = threadCpu()
  const machineAfter = machineCpu()
  const processMs = (used.user + used.system) / 1000
  const ops = (result.warmup?.ok ?? 0) + result.main.ok
  const cpu = { processMs, processMsPerOp: ops ? processMs / ops : null, loadGeneratorMs: result.loadGeneratorCpuMs ?? 0 }
  if (threadsBefore && threadsAfter && ops) {
    // The main thread (the event loop) apart from every other thread (worker threads, libuv's
    // pool, V8's compiler and GC helpers): where a request's CPU goes, user and kernel time.
    const main = threadsAfter.get(process.pid)
    const mainBefore = threadsBefore.get(process.pid) ?? { user: 0, system: 0 }
    if (main) {
      cpu.mainThreadMsPerOp = { user: (main.user - mainBefore.user) / ops, system: (main.system - mainBefore.system) / ops }
      let user = 0
      let system = 0
      for (const [tid, t] of threadsAfter) {
        if (tid === process.pid) continue
        const b = threadsBefore.get(tid) ?? { user: 0, system: 0 }
        user += t.user - b.user
        system += t.system - b.system
      }
      cpu.otherThreadsMsPerOp = { user: user / ops, system: system / ops }
    }
  }
  if (machineBefore && machineAfter) {
    const capacityMs = (machineAfter.at - machineBefore.at) * cpuCount
    const busyMs = machineAfter.busyMs - machineBefore.busyMs
    cpu.machineBusyShare = busyMs / capacityMs
    cpu.processShare = processMs / capacityMs
    cpu.loadGeneratorShare = cpu.loadGeneratorMs / capacityMs
    cpu.otherShare = Math.max(0, busyMs - processMs - cpu.loadGeneratorMs) / capacityMs
    cpu.stealShare = (machineAfter.stealMs - machineBefore.stealMs) / capacityMs
  }
  result.cpu = cpu
  return result
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]
}

/**
 * `concurrency` async loops calling `op(worker, phase)` back to back: a warm-up phase, then the
 * measured phase. Returns the measured phase's completed operations per second and latencies
 * (ms). `op` must throw on a wrong result so a broken baseline cannot look fast.
 */
export async function runLoops({ concurrency, warmupSeconds, seconds, op }) {
  const phase = async (name, durationSeconds) => {
    const latencies = []
    const start = performance.now()
    const deadline = start + durationSeconds * 1000
    let end = start
    const loop = async (worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now()
        await op(worker, name)
        const t1 = performance.now()
        latencies.push(t1 - t0)
        if (t1 > end) end = t1
      }
    }
    await Promise.all(Array.from({ length: concurrency }, (_, worker) => loop(worker)))
    latencies.sort((a, b) => a - b)
    const elapsed = (end - start) / 1000
    return {
      seconds: elapsed,
      ok: latencies.length,
      rps: latencies.length / elapsed,
      latencyMs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), avg: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1), max: latencies.at(-1) ?? null },
    }
  }
  const warmup = warmupSeconds > 0 ? await phase('warmup', warmupSeconds) : null
  const main = await phase('main', seconds)
  return { warmup, main }
}

const fmtRate = (n) => (n === null || n === undefined ? '-' : n >= 100 ? Math.round(n).toString() : n.toFixed(1))
const fmtMs = (n) => (n === null || n === undefined ? '-' : n === 0 ? '<1' : n >= 100 ? Math.round(n).toString() : n.toFixed(n >= 10 ? 1 : 2))

/** Rows: { backend, metric, ours, baseline, ratio, goal (null: no goal, shown as info), pass, oursP50, oursP99, baseP50, baseP99, non2xx } */
export function formatTable(rows) {
  const header = ['backend', 'metric', 'ours/s', 'baseline/s', 'ratio', 'goal', 'result', 'ours p50/p99 ms', 'baseline p50/p99 ms', 'non-2xx']
  const body = rows.map((r) => [
    r.backend,
    r.metric,
    fmtRate(r.ours),
    fmtRate(r.baseline),
    r.ratio === null ? '-' : r.ratio.toFixed(2),
    r.goal === null ? '-' : `>= ${r.goal}`,
    r.invalid ? 'INVALID' : r.goal === null ? 'info' : r.pass ? 'pass' : 'MISSED',
    `${fmtMs(r.oursP50)} / ${fmtMs(r.oursP99)}`,
    `${fmtMs(r.baseP50)} / ${fmtMs(r.baseP99)}`,
    String(r.non2xx ?? 0),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)))
  const line = (cells) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')
}

export function writeResults(name, data) {
  const dir = join(BENCH_DIR, 'results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)
  return file
}

/** Share of the machine's CPU busy over `ms` before a bench starts: other work skews every figure. */
export async function systemBusy(cpuCount, ms = 1000) {
  const before = machineCpu()
  await new Promise((r) => setTimeout(r, ms))
  const after = machineCpu()
  if (!before || !after) return null
  return (after.busyMs - before.busyMs) / ((after.at - before.at) * cpuCount)
}

/** A share as a whole percentage, '-' when unknown. */
export const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '-' : `${(100 * x).toFixed(0)}%`)

/** CPU milliseconds per operation, '-' when unknown. */
export const fmtCpu = (ms) => (ms === null || ms === undefined ? '-' : ms.toFixed(ms >= 10 ? 1 : 3))

/** A free port on 127.0.0.1, so PUBLIC_URL can name the port the server then listens on. */
/** The machine a run measured on, and how busy it was when the run started (bench results keep it). */
export async function machineEnvironment(cpuCount) {
  return {
    node: process.version,
    cpus: cpuCount,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
    cpuBusyBeforeStart: await systemBusy(cpuCount),
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** Runs `fn(client)` on a short-lived PostgreSQL connection of the bench's own. */
export async function withPg(url, fn) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** A new schema `<prefix>_<time>_<random>` for one run; `drop()` removes it and all it holds. */
export async function createBenchSchema(url, prefix) {
  const schema = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  await withPg(url, (c) => c.query(`CREATE SCHEMA ${schema}`))
  return { schema, drop: () => withPg(url, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)) }
}
