/**
 * The end-to-end harness: real Chromium (Debian's, driven by playwright-core) against the real
 * composed server (`buildServer` from @cumulus/server, which Vitest aliases to its sources) on a
 * loopback port, with a fresh data directory (SQLite, keys, mail and SMS outboxes) per server.
 *
 * Two ways to use it (README.md in this folder):
 * - the `test` fixtures below: one server and one browser per file, a fresh browser context per
 *   `openPage()` call, closed after the test, page errors asserted automatically;
 * - the plain functions (`startServer`, `launchBrowser`, `openPage`, ...) for anything else.
 *
 * No @playwright/test: Vitest runs these files (project `e2e` in vitest.config.ts).
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildServer, type CumulusConfig, type CumulusServer, loadConfig } from '@cumulus/server'
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type ConsoleMessage, type Page } from 'playwright-core'
import { beforeAll, expect, test as base } from 'vitest'
import { codeIn, parseMail } from '../../../../test-support/smtp-sink'

// ---------------------------------------------------------------------------------------------
// The web build

/** The server bundle `react-router build` writes; the composed server refuses to start without it. */
export const WEB_SERVER_BUILD = fileURLToPath(new URL('../../build/server/index.js', import.meta.url))

/** Throws a message that says what to run when the web app has not been built. */
export function assertWebBuilt(): void {
  if (!existsSync(WEB_SERVER_BUILD)) {
    throw new Error(`The web app is not built: ${WEB_SERVER_BUILD} is missing.\nRun \`node scripts/build-web.mjs\` at the repository root (\`npm test\` does it before Vitest), then run the e2e tests again.`)
  }
}

// ---------------------------------------------------------------------------------------------
// The server

export interface StartServerOptions {
  /** CAPTCHA_MODE: 'always' makes every guarded action ask for a captcha (the overlay tests). */
  captchaMode?: 'auto' | 'always' | 'off'
  /** Any other environment keys loadConfig reads (ACCOUNT_DELETION_GRACE_DAYS, APP_DEEP_LINK, ...). */
  env?: Record<string, string>
  /** LOG_LEVEL; default 'error' so passing runs stay quiet. */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`, also the server's PUBLIC_URL. No trailing slash. */
  url: string
  /** The fresh CUMULUS_DATA_DIR: cumulus.db, keys, outbox/ (mail, *.eml) and sms/ (*.txt). */
  dataDir: string
  config: CumulusConfig
  /** The composed server: `server.identity` gives the identity stores for fixtures that seed data. */
  server: CumulusServer
  /** Closes the server and deletes the data directory. Idempotent. */
  close(): Promise<void>
}

/** How long closing a server waits for in-flight requests before cutting their connections. */
const CLOSE_GRACE_MS = 5_000

/** A port free on 127.0.0.1 right now, so PUBLIC_URL can name it before the server listens. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts the composed server (APIs and web app) on 127.0.0.1 with a fresh data directory:
 * embedded SQLite, mail to `<dataDir>/outbox`, SMS to `<dataDir>/sms`, no housekeeping.
 */
export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  assertWebBuilt()
  const dataDir = await mkdtemp(join(tmpdir(), 'cumulus-e2e-'))
  // Another process may take the probed port before we bind it; try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      CUMULUS_DATA_DIR: dataDir,
      LOG_LEVEL: options.logLevel ?? 'error',
      ...(options.captchaMode ? { CAPTCHA_MODE: options.captchaMode } : {}),
      // Every browser of a file comes from 127.0.0.1: the per-IP send budget would count them as one visitor.
      VERIFICATION_SENDS_PER_IP_PER_HOUR: '1000000',
      ...options.env,
    })
    const server = await buildServer(config, { housekeeping: false })
    try {
      await server.app.listen({ host: config.host, port: config.port })
    } catch (err) {
      await server.close()
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue
      await rm(dataDir, { recursive: true, force: true })
      throw err
    }
    let closing: Promise<void> | undefined
    return {
      url,
      dataDir,
      config,
      server,
      close: () =>
        (closing ??= (async () => {
          // Fastify waits for in-flight requests; a response stuck streaming must not hang the
          // run, so after a grace period the remaining connections are cut.
          const cut = setTimeout(() => server.app.server.closeAllConnections(), CLOSE_GRACE_MS)
          try {
            await server.close()
          } finally {
            clearTimeout(cut)
          }
          await rm(dataDir, { recursive: true, force: true })
        })()),
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Mail and SMS outboxes

/** How long the outbox readers wait for a message before failing. */
export const OUTBOX_TIMEOUT_MS = 10_000
const OUTBOX_POLL_MS = 50

export interface OutboxMail {
  file: string
  to: string[]
  subject: string
  /** The decoded text/plain part. */
  text: string
  raw: string
  /** When the file was written (ms since the epoch). */
  writtenAt: number
}

export interface OutboxWaitOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number
  /** Only messages written at or after this time (ms since the epoch): take `Date.now()` before the action that sends. */
  since?: number
}

function addressesIn(header: string | undefined): string[] {
  return [...(header ?? '').matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((m) => m[0].toLowerCase())
}

async function filesIn(dir: string, extension: string): Promise<{ file: string; writtenAt: number }[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  // Senders write `.<name>.tmp` and rename it, so a listed file is complete.
  const files = await Promise.all(
    names.filter((name) => name.endsWith(extension) && !name.startsWith('.')).map(async (name) => ({ file: join(dir, name), writtenAt: (await stat(join(dir, name))).mtimeMs })),
  )
  return files.sort((a, b) => a.writtenAt - b.writtenAt || a.file.localeCompare(b.file))
}

/** Polls until `find` returns a value or the time is up. */
async function pollOutbox<T>(what: string, timeoutMs: number, find: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() >= deadline) throw new Error(`${what} did not arrive within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, OUTBOX_POLL_MS))
  }
}

/** The newest e-mail to `address` in `<dataDir>/outbox`, waiting for one (bounded). */
export async function readLatestMail(dataDir: string, address: string, options: OutboxWaitOptions = {}): Promise<OutboxMail> {
  const to = address.toLowerCase()
  const since = options.since ?? 0
  return pollOutbox(`an e-mail to ${address} in ${join(dataDir, 'outbox')}`, options.timeoutMs ?? OUTBOX_TIMEOUT_MS, async () => {
    const files = (await filesIn(join(dataDir, 'outbox'), '.eml')).filter((f) => f.writtenAt >= since)
    for (const { file, writtenAt } of files.reverse()) {
      const raw = await readFile(file, 'utf8')
      const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n(?=[ \t])/g, '')
      const recipients = addressesIn(/^To:[ \t]*(.*)$/im.exec(head)?.[1])
      if (recipients.includes(to)) return { file, to: recipients, raw, writtenAt, ...parseMail(raw) }
    }
    return undefined
  })
}

/** The 6-digit verification code of the newest e-mail to `address` (waits up to 10 s). */
export async function readLatestCode(dataDir: string, address: string, options: OutboxWaitOptions = {}): Promise<string> {
  return codeIn((await readLatestMail(dataDir, address, options)).text)
}

export interface OutboxSms {
  file: string
  to: string
  text: string
  writtenAt: number
}

/** The newest SMS to `phoneNumber` in `<dataDir>/sms` (digits compared, so +82 10-... matches +821 0...). */
export async function readLatestSms(dataDir: string, phoneNumber: string, options: OutboxWaitOptions = {}): Promise<OutboxSms> {
  const digits = phoneNumber.replace(/\D/g, '')
  const since = options.since ?? 0
  return pollOutbox(`an SMS to ${phoneNumber} in ${join(dataDir, 'sms')}`, options.timeoutMs ?? OUTBOX_TIMEOUT_MS, async () => {
    const files = (await filesIn(join(dataDir, 'sms'), '.txt')).filter((f) => f.writtenAt >= since)
    for (const { file, writtenAt } of files.reverse()) {
      const content = await readFile(file, 'utf8')
      const to = /^To:[ \t]*(.*)$/m.exec(content)?.[1]?.trim() ?? ''
      if (to.replace(/\D/g, '') === digits) return { file, to, text: content.slice(content.indexOf('\n\n') + 2).trim(), writtenAt }
    }
    return undefined
  })
}

/** The 6-digit code of the newest SMS to `phoneNumber` (waits up to 10 s). */
export async function readLatestSmsCode(dataDir: string, phoneNumber: string, options: OutboxWaitOptions = {}): Promise<string> {
  return codeIn((await readLatestSms(dataDir, phoneNumber, options)).text)
}

// ---------------------------------------------------------------------------------------------
// The browser

/**
 * Debian's Chromium with the flags this machine needs: no sandbox (root), and no background
 * networking, sync or component updates (the network is closed; Chromium would keep trying).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's package (\`apt-get install chromium\`; .ci/run does it) or set CHROMIUM_PATH.`)
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
}

/** A 375 px wide phone (iPhone SE/mini class), for the mobile layout. */
export const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
/** A desktop window. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } }

/** What went wrong in a page: console errors, uncaught exceptions and crashed pages. */
export interface PageErrors {
  /** Every problem recorded so far, as readable lines. */
  readonly list: readonly string[]
  /** Stops recording messages matching `pattern` (an expected failed request, say). */
  ignore(pattern: RegExp): void
  /** Fails the test listing what went wrong, if anything did. */
  expectNone(): void
}

/** Starts recording a page's console errors and uncaught errors. */
export function trackPageErrors(page: Page): PageErrors {
  const list: string[] = []
  // Chromium fetches the page's icon on its own, once per browser rather than per page, so its
  // failure would land in whichever test came first. pwa.test.ts checks the icons exist.
  const ignored: RegExp[] = [/^console\.error: Failed to load resource: .*\(https?:\/\/[^/]+\/favicon\.[a-z]+:\d+\)$/]
  const add = (line: string) => {
    if (!ignored.some((pattern) => pattern.test(line))) list.push(line)
  }
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return
    const { url, lineNumber } = message.location()
    add(`console.error: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`)
  })
  page.on('pageerror', (error) => add(`uncaught: ${error.stack ?? error.message}`))
  page.on('crash', () => add('the page crashed'))
  return {
    get list() {
      return list.filter((line) => !ignored.some((pattern) => pattern.test(line)))
    },
    ignore(pattern) {
      ignored.push(pattern)
    },
    expectNone() {
      expect(this.list, `errors in the page ${page.url()}`).toEqual([])
    },
  }
}

export interface OpenedPage {
  context: BrowserContext
  page: Page
  errors: PageErrors
}

/**
 * A new browser context (own cookies and storage) with one page whose errors are recorded.
 * `baseURL` is the server's, so `page.goto('/about')` works. Close `context` when done
 * (the `openPage` fixture does it for you).
 */
export async function openPage(browser: Browser, server: Pick<TestServer, 'url'>, options: BrowserContextOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ ...DESKTOP, locale: 'en-US', ...options, baseURL: server.url })
  // Anything a test forgets to wait for should fail fast rather than at Vitest's 60 s timeout.
  context.setDefaultTimeout(10_000)
  context.setDefaultNavigationTimeout(15_000)
  const page = await context.newPage()
  return { context, page, errors: trackPageErrors(page) }
}

/**
 * Waits until React has hydrated the document, so clicks reach React's handlers (a click on
 * server-rendered HTML before hydration does nothing). React marks each element it owns with
 * `__reactProps$...` when it hydrates it; `<body>` is rendered by the root route's Layout.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith('__reactProps$')))
}

// ---------------------------------------------------------------------------------------------
// Accessibility

const require = createRequire(import.meta.url)
let axeSource: Promise<string> | undefined

interface AxeNode {
  target: unknown[]
  failureSummary?: string
  html: string
}
interface AxeViolation {
  id: string
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null
  help: string
  helpUrl: string
  nodes: AxeNode[]
}

export interface A11yOptions {
  /** Impacts that fail the test (default serious and critical). */
  impacts?: readonly AxeViolation['impact'][]
  /** Rule ids to skip, each with the reason in a comment at the call site. */
  disableRules?: readonly string[]
}

/** Runs axe-core (the installed package, injected into the page) and returns the failing violations. */
export async function a11yViolations(page: Page, options: A11yOptions = {}): Promise<AxeViolation[]> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8')
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object')
  if (!loaded) await page.addScriptTag({ content: await axeSource })
  // Colours that are still transitioning (after a theme switch) would be judged halfway: end
  // them. Endless animations (a spinner) have no end to jump to and are left running.
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().endTime !== Infinity) animation.finish()
    }
  })
  const disabled = Object.fromEntries((options.disableRules ?? []).map((id) => [id, { enabled: false }]))
  const violations = await page.evaluate(async (rules) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'], rules })
    return result.violations
  }, disabled)
  const impacts = options.impacts ?? ['serious', 'critical']
  return (violations as AxeViolation[]).filter((v) => impacts.includes(v.impact))
}

/** One readable line per violation and failing element. */
export function formatViolations(violations: readonly AxeViolation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((node) => `[${v.impact}] ${v.id}: ${v.help} -- ${JSON.stringify(node.target)} ${node.html.slice(0, 160)}${node.failureSummary ? `\n    ${node.failureSummary.replace(/\n/g, '\n    ')}` : ''}`),
  )
}

/** Fails the test listing every axe-core violation of impact serious or critical on the page as it is now. */
export async function expectNoA11yViolations(page: Page, options: A11yOptions = {}): Promise<void> {
  const violations = await a11yViolations(page, options)
  expect(formatViolations(violations), `accessibility violations on ${page.url()}`).toEqual([])
}

// ---------------------------------------------------------------------------------------------
// Colour mode and locale helpers shared by tests

/** `<html>`'s classes. */
export async function htmlClasses(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.documentElement.classList])
}

/** `<html lang>` and `<html dir>`. */
export async function htmlLangDir(page: Page): Promise<{ lang: string; dir: string }> {
  return page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }))
}

/** Records the URL of every JavaScript response the page gets (scripts and module preloads), in order. */
export function recordScripts(page: Page): string[] {
  const urls: string[] = []
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (type === 'script' || /\.m?js(\?|$)/.test(new URL(response.url()).pathname)) urls.push(response.url())
  })
  return urls
}

/** Records the path (and query) of every document the page's main frame requests: loads, reloads, redirects. */
export function recordDocumentRequests(page: Page): string[] {
  const paths: string[] = []
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      const url = new URL(request.url())
      paths.push(url.pathname + url.search)
    }
  })
  return paths
}

/** Chooses an item of one of the header's Radix dropdowns (language or colour mode) by its visible name. */
export async function chooseFromMenu(page: Page, triggerTestId: 'language-switcher' | 'color-mode-switcher', itemName: string): Promise<void> {
  await page.getByTestId(triggerTestId).click()
  await page.getByRole('menuitemradio', { name: itemName, exact: true }).click()
}

// ---------------------------------------------------------------------------------------------
// Vitest fixtures

export interface E2EFixtures {
  /** One server per file (see `e2eTest` for its options). */
  server: TestServer
  /** One Chromium per file. */
  browser: Browser
  /**
   * Opens a page in a new context (desktop, en-US unless `options` say otherwise). Every
   * context is closed after the test, and each page's errors are asserted to be none unless
   * the test called `errors.ignore()` for the expected ones or `errors.list` was inspected
   * with `{ checkErrors: false }`.
   */
  openPage(options?: BrowserContextOptions & { checkErrors?: boolean }): Promise<OpenedPage>
}

/**
 * Vitest's `test` with the e2e fixtures. `e2eTest()` for the defaults; `e2eTest({ captchaMode:
 * 'always' })` for a file whose server needs other settings.
 */
export function e2eTest(serverOptions: StartServerOptions = {}) {
  return base
    .extend('server', { scope: 'file' }, async ({}, { onCleanup }) => {
      const server = await startServer(serverOptions)
      onCleanup(() => server.close())
      return server
    })
    .extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
      const browser = await launchBrowser()
      onCleanup(() => browser.close())
      return browser
    })
    .extend('openPage', async ({ browser, server }, { onCleanup }) => {
      const opened: (OpenedPage & { checkErrors: boolean })[] = []
      onCleanup(async () => {
        await Promise.all(opened.map((o) => o.context.close()))
        // Checked after closing, so a failure here does not leave contexts behind.
        for (const o of opened) if (o.checkErrors) o.errors.expectNone()
      })
      return async (options: BrowserContextOptions & { checkErrors?: boolean } = {}) => {
        const { checkErrors = true, ...contextOptions } = options
        const page = await openPage(browser, server, contextOptions)
        opened.push({ ...page, checkErrors })
        return page
      }
    })
}

/** The default fixtures: `import { test } from './playwright-utils'`. */
export const test = e2eTest()

// Every e2e file needs the build; say so once, clearly, before any server starts. (Vitest
// evaluates this module afresh for each test file, so the hook is registered in each.)
beforeAll(() => assertWebBuilt())
