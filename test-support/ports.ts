import { createServer } from 'node:net'

/**
 * A loopback port nothing listens on right now: a service that is down, or a port for a server
 * that must know its own URL before it listens (an issuer). Another process could take it in
 * between; on a test machine that is rare enough.
 */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
