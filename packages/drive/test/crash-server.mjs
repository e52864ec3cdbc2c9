// The real composed server in a child process, for crash.test.ts: the test kills it with
// SIGKILL mid-upload and starts it again on the same data. It imports the built packages
// (`@cumulus/server` → packages/server/dist); the test builds them first, incrementally.
// Configuration comes from the environment, as for `cumulus serve`; housekeeping is off so the
// test decides when it runs. Prints `{"port": n}` once listening on 127.0.0.1.
import { buildServer, loadConfig } from '@cumulus/server'

const server = await buildServer(loadConfig(process.env), { web: false, housekeeping: false })
await server.app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(`${JSON.stringify({ port: server.app.server.address().port })}\n`)
process.once('SIGTERM', () => {
  server.close().then(() => process.exit(0), () => process.exit(1))
})
