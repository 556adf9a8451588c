// `require('..')` in Fastify's test files resolves here (require-hook.ts): the factory itself is the module.
import { fastify } from './fastify-adapter'
export = fastify
