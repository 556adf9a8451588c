export { bearerAuth, isBearerAuth } from './bearer-auth'
export type { BearerAuthOptions } from './bearer-auth'
export { pluginErrorCodes } from './plugin-codes'
export type { PluginErrorCode } from './plugin-codes'
