export { withApp } from './with-app'
export type { TestApp } from './with-app'
