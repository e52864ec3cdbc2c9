/** @cumulus/server: the composition root and the `cumulus` CLI. Everything else in this package is private. */
export {
  CONFIG_FLAGS,
  CONFIG_KEYS,
  ConfigError,
  type ConfigIssue,
  type CumulusConfig,
  type DatabaseConfig,
  type LogLevel,
  type SigningJwk,
  loadConfig,
  redactConfig,
  redactUrl,
} from './config.js'
export { buildServer, type BuildServerOverrides, type CumulusServer } from './server.js'
export { loadKeys, type ServerKeys } from './keys.js'
export { createLogger } from './logger.js'
export { runCli, USAGE, type CliIo } from './run-cli.js'
