#!/usr/bin/env node
// `npm start`: build if needed, then `cumulus serve`. Extra arguments are passed on:
// `npm start -- --port 8080`.
process.argv.splice(2, 0, 'serve')
await import('./cumulus.mjs')
