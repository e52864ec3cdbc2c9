#!/usr/bin/env -S node --max-semi-space-size=1
// The flag keeps V8's young generation at 2 MB rather than 32 MB: the server allocates in short
// bursts and keeps little, so a small nursery costs nothing and saves 30 MB resident (decision 023).
// React and React Router choose their production or development builds from NODE_ENV when they
// are first imported, so it is settled before anything loads them. Operators may still set it.
process.env.NODE_ENV ??= 'production'
const { runCli } = await import('./run-cli.js')

// The bin entry, and the one place that reads process.env: it hands it to loadConfig through runCli.
const code = await runCli(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr })
process.exitCode = code
// A handle some dependency leaves open (a socket, a timer) must not keep a finished command alive.
setTimeout(() => process.exit(code), 2_000).unref()
