import type { IncomingMessage } from 'node:http'
import { type DestinationStream, type Logger, pino } from 'pino'
import type { CumulusConfig } from './config.js'

// Query parameters that carry bearer secrets (`DELETE /v1/user/me?sudo_token=…`,
// `/v1/auth/token/introspect?token=…`, a share's `?pwd=`, a signed link's `s`). Request URLs are
// logged, so their values are replaced.
const SECRET_PARAM = /token|secret|password|code|key|pwd|^s$/i

/** The request URL as it may be logged: values of secret-looking query parameters replaced. */
export function redactRequestUrl(url: string): string {
  const queryAt = url.indexOf('?')
  if (queryAt < 0) return url
  const query = url.slice(queryAt).replace(/([?&])([^=&]*)=([^&]*)/g, (param, separator: string, name: string) =>
    SECRET_PARAM.test(name) ? `${separator}${name}=***` : param,
  )
  return url.slice(0, queryAt) + query
}

type LoggedRequest = IncomingMessage & { ip?: string; host?: string; url: string }

/**
 * The process logger. The `req` serializer replaces Fastify's default (same fields) so that
 * secrets in query strings never reach the log; headers are not logged at all.
 */
export function createLogger(config: Pick<CumulusConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactRequestUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  }
  return destination ? pino(options, destination) : pino(options)
}
