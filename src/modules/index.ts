export { createApp } from './create-app'
export type { App } from './create-app'
export { moduleErrorCodes } from './module-codes'
export type { ModuleErrorCode } from './module-codes'
