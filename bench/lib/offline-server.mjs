// The server of the offline bench's http part, in its own process, so the RSS it reports is the
// server's alone: not the bench's fetch client polling the task, nor the torrent and job-store
// modules the other parts load. Started by bench/offline.mjs with fork():
//
//   NODE_ENV=production node bench/lib/offline-server.mjs '<json spec>'
//
// Spec: { env } — the environment loadConfig reads (data dir, port, limits). Builds the server
// as `cumulus serve` does (the web app included when its build is there), listens, and sends
// { type: 'ready', web } over IPC. Then answers:
//
//   { type: 'watch', intervalMs } -> starts sampling process.memoryUsage(); replies { type: 'watching', rss }
//   { type: 'stop' }              -> replies { type: 'stopped', maxBytes, atMax, samples }
//   { type: 'close' }             -> closes the server gracefully and exits 0
import { existsSync, readFileSync } from 'node:fs'

import { buildServer, loadConfig } from '@cumulus/server'
import { WEB_BUILD_DIRECTORY } from '@cumulus/web'

const spec = JSON.parse(process.argv[2] ?? '{}')
// The bench went away (finished, crashed or killed): do not linger, even mid-start.
process.on('disconnect', () => process.exit(0))
const send = (message) => new Promise((resolve) => process.send(message, resolve))

const config = loadConfig(spec.env)
const web = existsSync(`${WEB_BUILD_DIRECTORY}server/index.js`)
const server = await buildServer(config, { web, housekeeping: false })
await server.app.listen({ port: config.port, host: '127.0.0.1' })

/** Of the RSS, how much is anonymous memory (heaps, malloc) and how much is mapped files (the node binary, libraries), in bytes; Linux only. */
function rssParts() {
  try {
    const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8')
    const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? Number.NaN) * 1024
    return { anonymous: kib('Anonymous'), files: kib('Rss') - kib('Anonymous') }
  } catch {
    return null
  }
}

let watch = null
process.on('message', async (message) => {
  if (message?.type === 'watch') {
    clearInterval(watch?.timer)
    watch = { max: { ...process.memoryUsage(), parts: rssParts() }, samples: 1 }
    watch.timer = setInterval(() => {
      const now = process.memoryUsage()
      watch.samples++
      if (now.rss > watch.max.rss) watch.max = { ...now, parts: rssParts() }
    }, message.intervalMs)
    await send({ type: 'watching', rss: watch.max.rss })
  } else if (message?.type === 'stop') {
    clearInterval(watch?.timer)
    const { rss, heapTotal, heapUsed, external, arrayBuffers, parts } = watch?.max ?? { ...process.memoryUsage(), parts: rssParts() }
    await send({ type: 'stopped', maxBytes: rss, atMax: { heapTotal, heapUsed, external, arrayBuffers, anonymous: parts?.anonymous ?? null, files: parts?.files ?? null }, samples: watch?.samples ?? 0 })
    watch = null
  } else if (message?.type === 'close') {
    await server.close()
    await send({ type: 'closed' })
    process.exit(0)
  }
})
await send({ type: 'ready', web })
