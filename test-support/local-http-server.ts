import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LocalHttpServer {
  server: Server
  /** "http://127.0.0.1:<port>" */
  origin: string
  port: number
  /** Stops listening and cuts every open connection, so a stalled test response cannot hold the suite. */
  close(): Promise<void>
}

/** A real HTTP server on 127.0.0.1 and an ephemeral port, for tests that need a socket (clients, downloads). */
export async function startLocalHttpServer(handler: RequestListener): Promise<LocalHttpServer> {
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
