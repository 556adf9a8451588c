/**
 * fastify 3.27.4's ajv 6 options, for the contenders that call ajv themselves (raw, express) and
 * for the allErrors scope of every contender. Kept in one place so no contender validates with
 * different rules from the others.
 */
export const ajv6Options = { removeAdditional: true, useDefaults: true, coerceTypes: true, nullable: true, jsonPointers: true } as const

/** The same plus `allErrors`: the `all-400` endpoint's scope. */
export const ajv6AllErrorsOptions = { ...ajv6Options, allErrors: true } as const

/**
 * fastify 5's ajv 8 defaults (@fastify/ajv-compiler 4) plus `allErrors`: fastify 5's allErrors
 * scope compiles with these, so it differs from its default compiler in that one option only.
 */
export const ajv8AllErrorsOptions = { coerceTypes: 'array', useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: true } as const
