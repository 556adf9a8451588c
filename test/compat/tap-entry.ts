// `require('tap')` in Fastify's test files resolves here (require-hook.ts): one root per process,
// as the runner runs one test file per process.
import { TapRoot } from './tap'
const root = new TapRoot()
export = root
