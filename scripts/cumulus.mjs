#!/usr/bin/env node
// `npm run cumulus -- <command>`: build what the CLI needs (incremental, so a no-op when nothing
// changed), then run the `cumulus` CLI in this same process, so Ctrl-C and SIGTERM reach it
// directly. Use this rather than `npx cumulus`: on a fresh clone npm cannot link the bin before
// the first build, and npx would then look for an unrelated `cumulus` package on the registry.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildWeb } from './build-web.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')

// The root solution (tsconfig.json), the same graph `npm test` builds: every package in dependency
// order. Not `--build packages/server`: the server's references stop at the web app's server
// plugin, but the web app's bundle (built next) imports @cumulus/sdk from its dist/, which only
// the whole graph builds.
const build = spawnSync(process.execPath, [tsc, '--build'], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) {
  console.error('cumulus: the TypeScript build failed (see above).')
  process.exit(build.status ?? 1)
}

// The web app's bundle, when its sources changed since the last build.
if (buildWeb() !== 0) {
  console.error('cumulus: the web app build failed (see above).')
  process.exit(1)
}

await import(pathToFileURL(`${root}packages/server/dist/cli.js`).href)
