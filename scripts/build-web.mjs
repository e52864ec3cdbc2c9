#!/usr/bin/env node
// Builds the web app (`react-router build` in packages/web) when its output is missing or older
// than its sources or the packages it bundles. `--force` always builds. Run after `tsc -b`: the
// bundle imports @cumulus/protocol and @cumulus/sdk from their dist/.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const web = join(root, 'packages/web')
const output = join(web, 'build/server/index.js')
const inputs = ['packages/web/app', 'packages/web/public', 'packages/web/src/public-config.ts', 'packages/web/vite.config.ts', 'packages/web/react-router.config.ts', 'packages/web/package.json', 'packages/protocol/dist', 'packages/sdk/dist']

/** The newest modification time under a file or folder. */
function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs)
}

export function webBuildIsStale() {
  if (!existsSync(output)) return true
  const built = statSync(output).mtimeMs
  return inputs.some((input) => existsSync(join(root, input)) && newest(join(root, input)) > built)
}

export function buildWeb({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return 0
  const cli = [join(web, 'node_modules/@react-router/dev/bin.js'), join(root, 'node_modules/@react-router/dev/bin.js')].find((path) => existsSync(path))
  if (!cli) throw new Error('build-web: @react-router/dev is not installed; run npm ci first.')
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: web, stdio: ['ignore', 'inherit', 'inherit'] })
  return result.status ?? 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const status = buildWeb({ force: process.argv.includes('--force') })
  if (status !== 0) console.error('build-web: the web app build failed (see above).')
  process.exit(status)
}
