#!/usr/bin/env node
// React and React Router choose their production or development builds from NODE_ENV when they
// are first imported, so it is settled before anything loads them. Operators may still set it.
process.env.NODE_ENV ??= 'production'
const { runCli } = await import('./run-cli.js')

// The bin entry, and the one place that reads process.env: it hands it to loadConfig through runCli.
const code = await runCli(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr })
process.exitCode = code
// A handle some dependency leaves open (a socket, a timer) must not keep a finished command alive.
setTimeout(() => process.exit(code), 2_000).unref()
