// For erasure.test.ts: a server process that erases the accounts that are due and is killed
// (SIGKILL) right after identity's commit, before any domain event is delivered: the crash
// between "identity forgot the account" and "the drive purged it". It imports the built
// packages (the test builds them first). Configuration comes from the environment.
import { runHousekeeping } from '@cumulus/identity'
import { buildServer, loadConfig } from '@cumulus/server'

const server = await buildServer(loadConfig(process.env), { web: false, housekeeping: false, deliverEvents: false })
const { erasedUserIds } = await runHousekeeping(server.identity)
process.stdout.write(`${JSON.stringify({ erasedUserIds })}\n`, () => process.kill(process.pid, 'SIGKILL'))
