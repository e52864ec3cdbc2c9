import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Caller, DriveDeps } from '../deps.js'

/** What every drive route plugin receives. */
export interface DriveRouteOptions {
  deps: DriveDeps
  /** Identity's bearer check (sets the request's auth context or answers 401). */
  authenticate: preHandlerAsyncHookHandler
  /** The caller of a request that passed `authenticate`. */
  callerOf(request: FastifyRequest): Caller
}
