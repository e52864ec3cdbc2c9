// The baseline of bench/offline.mjs's HTTP part, in a process of its own (so its buffers do not
// count in the server's RSS): `node fetch-to-file.mjs <url> <path> <sizeBytes>` fetches the URL
// with fetch(), pipes the body to the file with pipeline and fs.createWriteStream, fsyncs it (the
// product fsyncs the blob before it lands), and prints `{ ms, rssMaxBytes }`: the time from the
// request to the fsync, and this process's largest RSS meanwhile, sampled every 200 ms.
import { closeSync, createWriteStream, fsyncSync, openSync, statSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

const MIB = 1024 * 1024
const [url, path, sizeText] = process.argv.slice(2)
const sizeBytes = Number(sizeText)
let rssMaxBytes = process.memoryUsage.rss()
const sampler = setInterval(() => (rssMaxBytes = Math.max(rssMaxBytes, process.memoryUsage.rss())), 200)
const t0 = performance.now()
const res = await fetch(url)
if (res.status !== 200) throw new Error(`the origin answered ${res.status}`)
await pipeline(Readable.fromWeb(res.body), createWriteStream(path, { highWaterMark: MIB }))
const fd = openSync(path, 'r+')
fsyncSync(fd)
closeSync(fd)
const ms = performance.now() - t0
clearInterval(sampler)
const written = statSync(path).size
if (written !== sizeBytes) throw new Error(`wrote ${written} bytes, expected ${sizeBytes}`)
process.stdout.write(`${JSON.stringify({ ms, rssMaxBytes })}\n`)
