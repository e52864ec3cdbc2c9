// Load generator, run as a child process so the load never shares an event loop with the server:
//
//   node bench/load.mjs '<json spec>'
//
// Runs autocannon programmatically (pipelining 1, no workers) for a warm-up phase and then the
// measured phase, and prints ONE line of JSON on stdout: { warmup: Summary, main: Summary }.
//
// Spec (JSON):
//   url            base URL, e.g. http://127.0.0.1:40123
//   method, path   the request
//   headers        request headers (object)
//   connections    concurrent connections
//   warmupSeconds  warm-up duration (0 = none); its figures are reported but not used
//   seconds        measured duration
//   kind           'fixed'   same request every time (`body`: string, optional)
//                  'bodies'  one body per connection (`bodies`: { warmup: string[], main: string[] })
//                  'each'    a new body for every request, in turn from `bodies` (single-use
//                            grants such as authorization codes: seed more than the run sends);
//                            a long list comes as `bodiesFile`, a JSON file of the same shape
//                  'numbered' a new body for every request: `body` (string) with each `{{n}}`
//                            replaced by a token unique within the run (phase initial and a
//                            counter), e.g. for creates that must not clash on a name
//                  'paths'   a different path for each request, in turn from `paths`: { warmup: string[],
//                            main: string[] } (searches over a sample of queries)
//                  'refresh' OAuth refresh chains (`chains`: { warmup: string[], main: string[] },
//                            `bodyBase`: object merged with { refresh_token }); each connection owns
//                            one chain and always sends the newest refresh token of it.
//
// Why per-connection state lives in `request.state` and not in autocannon's `context`:
// autocannon resets `context` (a deep clone of initialContext) every time a connection wraps
// around its `requests` array, i.e. after EVERY response when there is one request, so a token
// stored in `context` by onResponse would be gone by the next setupRequest. Each connection gets a
// deep clone of the `requests` array, so an object stored on the request (`state`) is private to
// that connection; setupRequest receives a shallow copy of the request (same `state` object) and
// onResponse is called with the connection's request as `this`.
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

const spec = JSON.parse(process.argv[2] ?? '{}')
// Long body lists (thousands of single-use codes) do not fit in argv: they come in a file.
if (spec.bodiesFile) spec.bodies = JSON.parse(readFileSync(spec.bodiesFile, 'utf8'))

/** First few non-2xx replies, for the report (status and the start of the body). */
const failures = []
function noteFailure(status, body) {
  if (failures.length < 5) failures.push({ status, body: String(body ?? '').slice(0, 300) })
}

function requestsFor(phase) {
  const base = { method: spec.method ?? 'GET', path: spec.path, headers: spec.headers ?? {}, state: {} }
  if (spec.kind === 'fixed') {
    return [
      {
        ...base,
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        onResponse(status, body) {
          if (status < 200 || status > 299) noteFailure(status, body)
        },
      },
    ]
  }
  if (spec.kind === 'bodies') {
    const bodies = spec.bodies[phase]
    let next = 0
    return [
      {
        ...base,
        setupRequest(req) {
          req.state.body ??= bodies[next++ % bodies.length]
          req.body = req.state.body
          return req
        },
        onResponse(status, body) {
          if (status < 200 || status > 299) noteFailure(status, body)
        },
      },
    ]
  }
  if (spec.kind === 'each') {
    const bodies = spec.bodies[phase]
    let next = 0
    return [
      {
        ...base,
        setupRequest(req) {
          req.body = bodies[next++ % bodies.length]
          return req
        },
        onResponse(status, body) {
          if (status < 200 || status > 299) noteFailure(status, body)
        },
      },
    ]
  }
  if (spec.kind === 'numbered') {
    const tag = phase.slice(0, 1)
    let next = 0
    return [
      {
        ...base,
        setupRequest(req) {
          req.body = spec.body.replaceAll('{{n}}', `${tag}${next++}`)
          return req
        },
        onResponse(status, body) {
          if (status < 200 || status > 299) noteFailure(status, body)
        },
      },
    ]
  }
  if (spec.kind === 'paths') {
    const paths = spec.paths[phase]
    let next = 0
    return [
      {
        ...base,
        setupRequest(req) {
          req.path = paths[next++ % paths.length]
          return req
        },
        onResponse(status, body) {
          if (status < 200 || status > 299) noteFailure(status, body)
        },
      },
    ]
  }
  if (spec.kind === 'refresh') {
    const chains = spec.chains[phase]
    let next = 0
    return [
      {
        ...base,
        setupRequest(req) {
          if (req.state.token === undefined) {
            if (next >= chains.length) throw new Error(`more connections than seeded refresh chains (${chains.length})`)
            req.state.token = chains[next++]
          }
          req.body = JSON.stringify({ ...spec.bodyBase, refresh_token: req.state.token })
          return req
        },
        onResponse(status, body) {
          if (status === 200) {
            // `this` is this connection's request object; its `state` is the one setupRequest sees.
            this.state.token = JSON.parse(body).refresh_token
            this.state.rotations = (this.state.rotations ?? 0) + 1
          } else {
            noteFailure(status, body)
          }
        },
      },
    ]
  }
  throw new Error(`unknown load kind ${spec.kind}`)
}

function summary(result) {
  const ok = result['2xx']
  return {
    seconds: result.duration,
    total: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets,
    rps: ok / result.duration,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, avg: result.latency.average, max: result.latency.max },
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
  }
}

async function phase(name, seconds) {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    duration: seconds,
    timeout: 30,
    requests: requestsFor(name),
  })
  return summary(result)
}

try {
  const cpuBefore = process.cpuUsage()
  const warmup = spec.warmupSeconds > 0 ? await phase('warmup', spec.warmupSeconds) : null
  failures.length = 0 // only the measured phase's failures are reported
  const main = await phase('main', spec.seconds)
  const cpu = process.cpuUsage(cpuBefore)
  process.stdout.write(`${JSON.stringify({ warmup, main, failures, loadGeneratorCpuMs: (cpu.user + cpu.system) / 1000 })}\n`)
} catch (err) {
  process.stderr.write(`load generator failed: ${err?.stack ?? err}\n`)
  process.exit(1)
}
