import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { type IncomingHttpHeaders, type RequestListener, type Server as HttpServer, createServer as createHttpServer } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { hostileAddressUrl, privateIpv4, privateIpv6, publicAddresses } from '../../../../../../test-support/hostile-addresses.js'
import { type LocalHttpServer, startLocalHttpServer } from '../../../../../../test-support/local-http-server.js'
import { createAddressPolicy } from './address-policy.js'
import { OfflineDownloadFailed, OfflineHttpError, OfflineUrlRefused } from './errors.js'
import { MAX_REDIRECTS, openSafeResponse, parseDownloadUrl, requireAllowedTarget, type Resolver, type SafeRequestDeps } from './safe-request.js'

const publicOnly = createAddressPolicy({ allowedPrivateRanges: [] })
const localOnly = createAddressPolicy({ allowedPrivateRanges: ['127.0.0.1/32'] })

/** A resolver for literal-only tests: a host name reaching it means the URL parser did not read an address. */
const noDns: Resolver = async (hostname) => {
  throw new Error(`unexpected resolution of ${hostname}`)
}

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work()
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

async function refusalOf(work: () => Promise<unknown>): Promise<OfflineUrlRefused> {
  const error = await failureOf(work)
  expect(error).toBeInstanceOf(OfflineUrlRefused)
  return error as OfflineUrlRefused
}

const servers: LocalHttpServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(handler: Parameters<typeof startLocalHttpServer>[0]): Promise<LocalHttpServer> {
  const server = await startLocalHttpServer(handler)
  servers.push(server)
  return server
}

const neverAborted = new AbortController().signal

/**
 * The Host headers a server on 127.0.0.1:`port` (the scheme's own) received for one request to
 * `url`, whose host resolves there; null when the port is taken or needs privileges this run lacks.
 */
async function hostsOnDefaultPort(
  create: (handler: RequestListener) => HttpServer,
  port: number,
  url: string,
  deps: Partial<SafeRequestDeps>,
): Promise<(string | undefined)[] | null> {
  const hosts: (string | undefined)[] = []
  const server = create((req, res) => {
    hosts.push(req.headers.host)
    res.end('default port')
  })
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => resolve(true))
  })
  if (!listening) return null
  try {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]
    const { response } = await openSafeResponse({ addresses: localOnly, resolve, ...deps }, { url }, neverAborted)
    response.destroy()
    expect(response.statusCode).toBe(200)
    return hosts
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

/** 4 MiB whose every 32-bit word is its own index: any byte out of place shows. */
function patternedBody(): Buffer {
  const words = new Uint32Array(1024 * 1024)
  for (let i = 0; i < words.length; i++) words[i] = i
  return Buffer.from(words.buffer)
}

/**
 * Reads the response keeping every chunk it is given, as is, until the end: the connection reads
 * into one reused buffer (reusingConnection), so a chunk that were a view of it would have been
 * overwritten by the later reads by the time the chunks are joined.
 */
async function heldChunks(response: import('node:http').IncomingMessage): Promise<{ body: Buffer; chunks: number }> {
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk as Buffer)
  return { body: Buffer.concat(chunks), chunks: chunks.length }
}

describe('parseDownloadUrl', () => {
  it('relies on the URL parser to turn every IPv4 spelling into dotted decimal', () => {
    for (const spelling of ['0x7f000001', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '127.0.1', '0x7F.0X0.0.1', '127.0.0.1.', '%31%32%37.0.0.1', '\uff11\uff12\uff17.0.0.1']) {
      expect(parseDownloadUrl(`http://${spelling}/`).hostname, spelling).toBe('127.0.0.1')
    }
    expect(parseDownloadUrl('http://0/').hostname).toBe('0.0.0.0')
    expect(parseDownloadUrl('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]')
    expect(parseDownloadUrl('http://[0:0:0:0:0:0:0:1]/').hostname).toBe('[::1]')
  })

  it('refuses what is not an http(s) URL with a host, and ports of other protocols', () => {
    const cases: [string, string][] = [
      ['file:///etc/passwd', 'bad_scheme'],
      ['ftp://example.com/a.iso', 'bad_scheme'],
      ['gopher://127.0.0.1:6379/_INFO', 'bad_scheme'],
      ['thunder://QUFodHRwOi8vMTI3LjAuMC4xL1pa', 'bad_scheme'],
      ['javascript:alert(1)', 'bad_scheme'],
      ['not a url', 'bad_url'],
      ['http://', 'bad_url'],
      ['http://[fe80::1%25eth0]/', 'bad_url'],
      ['http://1.2.3.4.5/', 'bad_url'],
      ['http://example.com:25/', 'bad_port'],
      ['https://example.com:6667/', 'bad_port'],
    ]
    for (const [url, reason] of cases) {
      let error: unknown
      try {
        parseDownloadUrl(url)
      } catch (e) {
        error = e
      }
      expect(error, url).toBeInstanceOf(OfflineUrlRefused)
      expect((error as OfflineUrlRefused).reason, url).toBe(reason)
    }
  })
})

describe('requireAllowedTarget', () => {
  it('refuses every spelling of every non-public address, before any connection', async () => {
    await fc.assert(
      fc.asyncProperty(hostileAddressUrl, async (raw) => {
        const refusal = await refusalOf(async () => requireAllowedTarget({ addresses: publicOnly, resolve: noDns }, parseDownloadUrl(raw)))
        // The parser refuses some (an IPv6 zone); the policy refuses the rest.
        expect(['private_address', 'bad_url']).toContain(refusal.reason)
        expect(refusal.url ?? '').not.toContain('pass')
      }),
      { numRuns: 500 },
    )
  })

  it('refuses the well-known SSRF targets by name', async () => {
    for (const raw of ['http://127.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://0x7f000001/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::]/', 'http://0/', 'http://100.64.0.1/', 'http://[fd00::1]/', 'http://[64:ff9b::7f00:1]/', 'http://[2002:7f00:1::]/', 'http://user:pass@127.0.0.1.:8080/']) {
      const refusal = await refusalOf(() => requireAllowedTarget({ addresses: publicOnly, resolve: noDns }, parseDownloadUrl(raw)))
      expect(refusal.reason, raw).toBe('private_address')
    }
  })

  it('pins a public literal without resolving it', async () => {
    const target = await requireAllowedTarget({ addresses: publicOnly, resolve: noDns }, parseDownloadUrl('https://0x8080808/x'))
    expect(target).toMatchObject({ address: '8.8.8.8', family: 4 })
  })

  it('refuses a host name when any one of its addresses is not public', async () => {
    await fc.assert(
      fc.asyncProperty(fc.domain(), fc.array(fc.constantFrom(...publicAddresses), { maxLength: 3 }), fc.oneof(privateIpv4, privateIpv6), fc.nat(), async (host, publics, hostile, at) => {
        const addresses = [...publics]
        addresses.splice(at % (addresses.length + 1), 0, hostile)
        const resolve: Resolver = async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
        const refusal = await refusalOf(() => requireAllowedTarget({ addresses: publicOnly, resolve }, parseDownloadUrl(`http://${host}/`)))
        expect(refusal).toMatchObject({ reason: 'private_address', address: hostile })
      }),
    )
  })

  it('refuses localhost through the system resolver', async () => {
    const refusal = await refusalOf(() => requireAllowedTarget({ addresses: publicOnly }, parseDownloadUrl('http://localhost/')))
    expect(refusal.reason).toBe('private_address')
  })

  it('says dns_failed when a host does not resolve', async () => {
    const error = await failureOf(() => requireAllowedTarget({ addresses: publicOnly, resolve: async () => [] }, parseDownloadUrl('http://nowhere.test/')))
    expect(error).toMatchObject({ reason: 'dns_failed', retryable: true })
  })
})

/** Records what reached the server: method, path and headers of each request. */
type Seen = { method: string; url: string; headers: IncomingHttpHeaders }

describe('openSafeResponse', () => {
  async function redirectChain(): Promise<{ server: LocalHttpServer; seen: Seen[] }> {
    const seen: Seen[] = []
    const server = await serve((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
      const hops = /^\/hops\/(\d+)$/.exec(req.url ?? '')
      if (hops && Number(hops[1]) > 0) {
        // Alternate the statuses and relative forms a server may use.
        const n = Number(hops[1])
        const status = [301, 302, 303, 307, 308][n % 5] as number
        res.writeHead(status, { location: n % 2 === 0 ? `/hops/${n - 1}` : `${n - 1}` }).end()
        return
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived')
    })
    return { server, seen }
  }

  it(`follows a chain of ${MAX_REDIRECTS} redirects, absolute-path and relative`, async () => {
    const { server, seen } = await redirectChain()
    const { response, finalUrl } = await openSafeResponse({ addresses: localOnly }, { url: `${server.origin}/hops/${MAX_REDIRECTS}` }, neverAborted)
    response.destroy()
    expect(response.statusCode).toBe(200)
    expect(finalUrl.href).toBe(`${server.origin}/hops/0`)
    expect(seen.map((s) => s.method)).toEqual(Array(MAX_REDIRECTS + 1).fill('GET'))
  })

  it(`refuses the ${MAX_REDIRECTS + 1}th redirect`, async () => {
    const { server, seen } = await redirectChain()
    const refusal = await refusalOf(() => openSafeResponse({ addresses: localOnly }, { url: `${server.origin}/hops/${MAX_REDIRECTS + 1}` }, neverAborted))
    expect(refusal.reason).toBe('too_many_redirects')
    expect(seen).toHaveLength(MAX_REDIRECTS + 1)
  })

  it('refuses a redirect to an address the allow-list does not cover, without connecting to it', async () => {
    for (const target of ['http://127.0.0.2:{port}/x', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:{port}/', 'http://0x7f000002:{port}/', 'http://localhost:{port}/']) {
      let reached = false
      const other = await serve((_req, res) => {
        reached = true
        res.end('internal')
      })
      const server = await serve((_req, res) => res.writeHead(302, { location: target.replace('{port}', String(other.port)) }).end())
      const resolve: Resolver = async (host) => (host === 'localhost' ? [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }] : [])
      const refusal = await refusalOf(() => openSafeResponse({ addresses: localOnly, resolve }, { url: `${server.origin}/` }, neverAborted))
      expect(refusal.reason, target).toBe('private_address')
      expect(reached).toBe(false)
    }
  })

  it('refuses a redirect to another scheme', async () => {
    for (const location of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'gopher://127.0.0.1:70/', 'javascript:alert(1)']) {
      const server = await serve((_req, res) => res.writeHead(301, { location }).end())
      const refusal = await refusalOf(() => openSafeResponse({ addresses: localOnly }, { url: `${server.origin}/` }, neverAborted))
      expect(refusal.reason, location).toBe('bad_scheme')
    }
  })

  it('reads a Location sent as raw UTF-8 the way browsers do', async () => {
    const seen: string[] = []
    const server = await serve((req, res) => {
      seen.push(req.url ?? '')
      if (req.url === '/start') res.writeHead(302, { location: Buffer.from('/文件 1.zip', 'utf8').toString('latin1') }).end()
      else res.end('ok')
    })
    const { response, finalUrl } = await openSafeResponse({ addresses: localOnly }, { url: `${server.origin}/start` }, neverAborted)
    response.destroy()
    expect(seen).toEqual(['/start', '/%E6%96%87%E4%BB%B6%201.zip'])
    expect(decodeURIComponent(finalUrl.pathname)).toBe('/文件 1.zip')
  })

  it('connects to the address it checked, once, and keeps the host name for the Host header (no DNS rebinding)', async () => {
    const seen: Seen[] = []
    const server = await serve((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
      res.end('ok')
    })
    // A rebinding resolver: the checked answer first, the metadata service on every later ask.
    let asked = 0
    const resolve: Resolver = async () => (asked++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }])
    const { response, finalUrl } = await openSafeResponse({ addresses: localOnly, resolve }, { url: `http://files.example:${server.port}/a?b=1#frag` }, neverAborted)
    response.destroy()
    expect(asked).toBe(1)
    expect(seen[0]).toMatchObject({ url: '/a?b=1', headers: { host: `files.example:${server.port}`, 'accept-encoding': 'identity' } })
    expect(finalUrl.href).toBe(`http://files.example:${server.port}/a?b=1`)
  })

  it("sends the link's credentials to its own origin only, and never returns them", async () => {
    const seen: Seen[] = []
    const other = await serve((req, res) => {
      seen.push({ method: 'GET', url: `other${req.url}`, headers: req.headers })
      res.end('ok')
    })
    const server = await serve((req, res) => {
      seen.push({ method: 'GET', url: req.url ?? '', headers: req.headers })
      if (req.url === '/start') res.writeHead(302, { location: '/same' }).end()
      else res.writeHead(302, { location: `http://again:leak@127.0.0.1:${other.port}/elsewhere` }).end()
    })
    const { response, finalUrl } = await openSafeResponse({ addresses: localOnly }, { url: `http://me:s%3Acret@127.0.0.1:${server.port}/start` }, neverAborted)
    response.destroy()
    const basic = `Basic ${Buffer.from('me:s:cret').toString('base64')}`
    expect(seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/start', basic],
      ['/same', basic],
      ['other/elsewhere', undefined],
    ])
    expect(finalUrl.href).toBe(`http://127.0.0.1:${other.port}/elsewhere`)
  })

  it('gives up on a server that never answers (headers_timeout)', async () => {
    const server = await serve(() => {
      // Never answers.
    })
    const error = await failureOf(() => openSafeResponse({ addresses: localOnly, headersTimeoutMs: 100 }, { url: `${server.origin}/` }, neverAborted))
    expect(error).toBeInstanceOf(OfflineDownloadFailed)
    expect(error).toMatchObject({ reason: 'headers_timeout', retryable: true })
  })

  it("rejects with the caller's abort reason while waiting", async () => {
    const server = await serve(() => {})
    const controller = new AbortController()
    const pending = openSafeResponse({ addresses: localOnly }, { url: `${server.origin}/` }, controller.signal)
    const reason = new Error('cancelled by the user')
    setImmediate(() => controller.abort(reason))
    expect(await failureOf(() => pending)).toBe(reason)
  })

  it('hands out body chunks that stay intact while the connection reads on into its buffer', async () => {
    const expected = patternedBody()
    // Written in small pieces with and without a length, so the parser meets many reads, chunked framing included.
    const server = await serve((req, res) => {
      if (req.url === '/chunked') res.writeHead(200)
      else res.writeHead(200, { 'content-length': expected.length })
      for (let at = 0; at < expected.length; at += 10_000) res.write(expected.subarray(at, at + 10_000))
      res.end()
    })
    for (const path of ['/sized', '/chunked']) {
      const { response } = await openSafeResponse({ addresses: localOnly }, { url: `${server.origin}${path}` }, neverAborted)
      const { body, chunks } = await heldChunks(response)
      expect(chunks).toBeGreaterThan(10)
      expect(body.equals(expected)).toBe(true)
    }
  })

  it("connects a link without a port to the scheme's port, and names no port in Host", async (context) => {
    const hosts = await hostsOnDefaultPort((handler) => createHttpServer(handler), 80, 'http://files.example/', {})
    if (hosts === null) return context.skip()
    expect(hosts).toEqual(['files.example'])
  })

  it('says connection_lost when nothing listens', async () => {
    const server = await serve(() => {})
    const url = `${server.origin}/`
    await server.close()
    servers.length = 0
    const error = await failureOf(() => openSafeResponse({ addresses: localOnly }, { url }, neverAborted))
    expect(error).toBeInstanceOf(OfflineHttpError)
    expect(error).toMatchObject({ reason: 'connection_lost', retryable: true })
  })
})

/** A self-signed certificate for files.example, made with the openssl command line (absent: the https tests are skipped). */
function selfSignedCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), 'offline-tls-'))
  try {
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=files.example', '-addext', 'subjectAltName=DNS:files.example']
    execFileSync('openssl', [...args, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' })
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } catch {
    return null
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const tls = selfSignedCertificate()

describe.skipIf(tls === null)('openSafeResponse over https', () => {
  it('connects an https link without a port to 443, and names no port in Host', async (context) => {
    const { key, cert } = tls as { key: string; cert: string }
    const hosts = await hostsOnDefaultPort((handler) => createHttpsServer({ key, cert }, handler), 443, 'https://files.example/', { extraCaCertificates: [cert] })
    if (hosts === null) return context.skip()
    expect(hosts).toEqual(['files.example'])
  })

  it('checks the certificate and sends SNI for the host name while connecting to the pinned address', async () => {
    const { key, cert } = tls as { key: string; cert: string }
    const names: (string | undefined)[] = []
    const server = createHttpsServer({ key, cert }, (_req, res) => res.end('secure'))
    server.on('secureConnection', (socket) => names.push((socket as unknown as { servername?: string }).servername))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]
      const deps: SafeRequestDeps = { addresses: localOnly, resolve, extraCaCertificates: [cert] }
      const { response } = await openSafeResponse(deps, { url: `https://files.example:${port}/` }, neverAborted)
      response.destroy()
      expect(response.statusCode).toBe(200)
      expect(names).toEqual(['files.example'])
      // Same address, another name: the certificate does not cover it.
      const error = await failureOf(() => openSafeResponse(deps, { url: `https://other.example:${port}/` }, neverAborted))
      expect(error).toMatchObject({ reason: 'tls_failed', retryable: false })
      // Without the extra anchor the self-signed certificate is not trusted.
      const untrusted = await failureOf(() => openSafeResponse({ addresses: localOnly, resolve }, { url: `https://files.example:${port}/` }, neverAborted))
      expect(untrusted).toMatchObject({ reason: 'tls_failed' })
      // The body's chunks, held until the end, are intact over TLS too.
      const expected = patternedBody()
      server.removeAllListeners('request')
      server.on('request', (_req, res) => res.end(expected))
      const secure = await openSafeResponse(deps, { url: `https://files.example:${port}/big` }, neverAborted)
      const { body, chunks } = await heldChunks(secure.response)
      expect(chunks).toBeGreaterThan(10)
      expect(body.equals(expected)).toBe(true)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
