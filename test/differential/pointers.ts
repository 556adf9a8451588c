// Fastify 3's validation paths (ajv 6's `.a`, `['x-a']`, `[0]`) as the JSON pointers Enclave writes
// (README: validation error paths are JSON pointers by default); used by the answer and log rules.
const PART_PATH = /(^|, )(querystring|params|headers|body)((?:\.[^ .[,]+|\['(?:[^'\\]|\\.)*'\]|\[\d+\])*) /g

/** Fastify 3's `body.a should be integer` as Enclave writes it: `body/a should be integer`. */
export function pointerMessage(message: string): string {
  if (!/^(querystring|params|headers|body)\b/.test(message)) return message
  // A missing property is named as it is: `'.b'` is `'b'` (same README entry).
  return message
    .replace(PART_PATH, (_m, lead: string, part: string, path: string) => `${lead}${part}${pointer(path)} `)
    .replace(/should have required property '\.([^']*)'/g, "should have required property '$1'")
}

// ajv 6's dataPath as Fastify 3 prints it (`.a`, `['x-a']`, `[0]`), as a JSON pointer.
export function pointer(dataPath: string): string {
  return dataPath.replace(/\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]|\.([^.[]+)/g, (_m, quoted?: string, index?: string, plain?: string) => `/${quoted ?? index ?? plain}`)
}
