import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Tests import sibling packages from source, so `npm test` does not depend on a fresh build.
const source = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url))
const alias = {
  '@cumulus/protocol': source('protocol'),
  '@cumulus/identity': source('identity'),
  '@cumulus/jobs': source('jobs'),
  '@cumulus/sdk': source('sdk'),
  '@cumulus/drive': source('drive'),
  '@cumulus/server': source('server'),
  '@cumulus/web': source('web'),
}

// Suites that touch the database run twice: embedded SQLite with in-process counters (the
// zero-config start), and PostgreSQL with Redis counters (the scale-out configuration).
const serviceSuites = [
  'packages/identity/src/**/*.test.ts',
  'packages/identity/test/**/*.test.ts',
  'packages/server/src/**/*.test.ts',
  'packages/drive/test/**/*.test.ts',
  'packages/jobs/test/**/*.test.ts',
  // The SDK against the real identity service; its pure unit tests run once, in `unit`.
  'packages/sdk/**/*.integration.test.ts',
]

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './vitest.summary-reporter.ts'],
    // Two test files at a time (Vitest's default is one per core less one: a single file at a time
    // on the 2-core CI machines, which took the suite past half an hour). The end-to-end files
    // still run one at a time (their project's fileParallelism), after the others.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['packages/protocol/src/**/*.test.ts', 'packages/sdk/src/**/*.test.ts', 'test-support/**/*.test.ts', 'bench/**/*.test.ts', 'packages/web/src/**/*.test.ts', 'packages/drive/src/**/*.test.ts'], exclude: ['**/*.integration.test.ts', '**/node_modules/**'] },
      },
      {
        // The web app's modules and components, in a simulated DOM.
        extends: true,
        test: { name: 'web', include: ['packages/web/app/**/*.test.{ts,tsx}'], environment: 'happy-dom', setupFiles: ['packages/web/test/setup-dom.ts'] },
      },
      {
        // Real Chromium against a real server (packages/web/tests/e2e/README.md). One file at a
        // time: each starts its own server and browser.
        extends: true,
        test: { name: 'e2e', include: ['packages/web/tests/e2e/**/*.test.ts'], fileParallelism: false, testTimeout: 60_000, hookTimeout: 90_000 },
      },
      { extends: true, test: { name: 'sqlite', include: serviceSuites, provide: { backend: 'sqlite' } } },
      { extends: true, test: { name: 'postgres', include: serviceSuites, provide: { backend: 'postgres' } } },
    ],
  },
})
