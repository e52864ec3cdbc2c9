// A tus client in its own process, as a real uploader is: streams a file to an upload endpoint
// in one PATCH (the first byte changed by `round`, so no two rounds send the same content) and
// prints the reply status as JSON. Used by bench/drive.mjs; talks only to the URL it is given.
import { createReadStream, statSync } from 'node:fs'
import { request } from 'node:http'

const [endpoint, token, path, roundText] = process.argv.slice(2)
const round = Number(roundText)
const size = statSync(path).size
let first = true
const body = createReadStream(path, { highWaterMark: 1024 * 1024 }).map((chunk) => {
  if (!first) return chunk
  first = false
  const copy = Buffer.from(chunk)
  copy[0] = (copy[0] + round + 1) & 0xff
  return copy
})
const req = request(endpoint, {
  method: 'PATCH',
  headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(size) },
}, (res) => {
  let text = ''
  res.on('data', (c) => (text += c))
  res.on('end', () => process.stdout.write(`${JSON.stringify({ status: res.statusCode, body: text.slice(0, 500) })}\n`))
})
req.on('error', (err) => {
  process.stderr.write(`${err.stack ?? err}\n`)
  process.exit(1)
})
body.pipe(req)
