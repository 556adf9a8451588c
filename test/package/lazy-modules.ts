// Enclave's files a plain app never runs (bench/README "session 18"): loaded on first use of
// startCluster(), `schemaCache`, printRoutes()/openapi()... and semver (a plugin declaring a
// Fastify range). Named as require.cache names them, relative to dist/src or node_modules/<package>/;
// the bundled package's wrappers use the same relative names.
export const NOT_LOADED_FILES: readonly RegExp[] = [
  /^cluster[\\/](start-cluster|primary|worker)\.js$/,
  /^runtime[\\/]schemas[\\/]code-cache[\\/](schema-code-cache|cache-fingerprint|sha256|ajv6-pack|fjs-pack|from-cache)\.js$/,
  /^runtime[\\/]inspect[\\/](inspect-view|explain|print-plugins|print-routes|print-tree)\.js$/,
  /^runtime[\\/]inspect[\\/]openapi[\\/]/,
  /^node_modules[\\/]semver[\\/]/,
]
