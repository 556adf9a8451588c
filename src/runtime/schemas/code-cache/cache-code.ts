// What a server given `schemaCache` uses, in one module so that load-cache-code.ts loads it with one require.
export { SchemaCodeCache } from './schema-code-cache'
export { serializerFingerprint, validatorFingerprint } from './cache-fingerprint'
export { packValidator, unpackValidator } from './ajv6-pack'
export { evaluateStandaloneSerializer } from './fjs-pack'
export { fromCache } from './from-cache'
export { isPlainJson } from './json-value'
