import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    backend: 'sqlite' | 'postgres'
  }
}

/** The machine's PostgreSQL (trust auth); tests make and drop their own schema or database in it. */
export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test'
/** The machine's Redis; tests use their own random key prefix. */
export const REDIS_URL = 'redis://127.0.0.1:6379'

/** The backend of the Vitest project running this file (see vitest.config.ts). */
export function testBackend(): 'sqlite' | 'postgres' {
  return inject('backend') ?? 'sqlite'
}
