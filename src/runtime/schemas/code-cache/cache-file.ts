/** The schema cache's file name in its directory (schemaCache option). */
export const SCHEMA_CACHE_FILE = 'enclave-schemas.cache'
