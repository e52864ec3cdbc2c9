/** @cumulus/web: the Fastify plugin that serves the web app's build, and its public config type. */
export { webPlugin, type WebPluginOptions, WEB_BUILD_DIRECTORY } from './web-plugin.js'
export { DEFAULT_WEB_PUBLIC_CONFIG, INSTALL_PWA_TARGET, PLATFORMS, type Platform, type WebPublicConfig } from './public-config.js'
