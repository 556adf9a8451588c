import { FrameworkError } from '../errors/framework-error'
import { codeSummaries, defineError as e, errorFactory } from '../errors/define-errors'

type Kind = 'validator' | 'serializer'
const asyncRefusal = 'Asynchronous validation is refused because it may run database work before the request is accepted (spec §1.6): validate ' +
  'synchronously and move asynchronous work into a preHandler hook.'

/**
 * The schema subsystem's errors, each declared once (status, docs/errors.md summary, message template),
 * same shape as the runtime's table: `status` is the HTTP status for errors raised while
 * answering a request, `null` for boot errors. Validation failures themselves carry no code:
 * their 400 payload is exactly `{ statusCode, error, message }` (spec §2.4).
 */
export const schemaErrors = {
  ENC_ERR_SCH_NOT_OBJECT: e({ status: null, summary: 'a shared schema or a route schema part is not a JSON Schema object',
    message: (a: { case: 'schema-option'; where: string; got: string } | { case: 'part'; part: string; where: string; got: string }
      | { case: 'response'; where: string; got: string } | { case: 'response-key'; key: string; where: string; got: string }
      | { case: 'shared'; scopePath: string; got: string } | { case: 'shorthand-off'; part: string; where: string; keys: string }) => {
      switch (a.case) {
        case 'schema-option': return `The schema option of route ${a.where} is ${a.got}: pass an object with the parts body, querystring (or query), params, headers and response.`
        case 'part': return `The ${a.part} schema of route ${a.where} is ${a.got}: pass a JSON Schema object, or the shorthand (the properties listed at the top level).`
        case 'response': return `The response schema of route ${a.where} is ${a.got}: pass an object that maps a status key (200, '2xx' or 'default') to a schema.`
        case 'response-key': return `The response ${a.key} schema of route ${a.where} is ${a.got}: pass a JSON Schema object, or remove the key to send that status without a schema.`
        case 'shorthand-off': return `The ${a.part} schema of route ${a.where} has no JSON Schema keyword, only ${a.keys}: with createServer({ jsonShorthand: false }) ` +
          `a part is read as a complete schema, so this one would accept anything. Write { type: 'object', properties: { ${a.keys} } }, or leave jsonShorthand at true.`
        case 'shared': return `addSchema() in scope ${a.scopePath} was given ${a.got}, not a schema object: pass a JSON Schema object with a string $id.`
      }
    } }),
  ENC_ERR_SCH_MISSING_ID: e({ status: null, summary: 'addSchema() was given a schema without a string $id',
    message: (a: { scopePath: string; got: string }) => `addSchema() in scope ${a.scopePath} was given a schema without a string $id (got ${a.got}): ` +
      'add "$id": "<name>" so that routes can reference it as { $ref: \'<name>#\' }.' }),
  ENC_ERR_SCH_DUPLICATE_ID: e({ status: null, summary: 'a shared schema $id is already declared in the scope, an ancestor or a descendant',
    message: (a: { scopePath: string; id: string; in: 'this' | 'ancestor' | 'descendant'; other: string; same?: boolean }) => a.in === 'descendant'
      ? `addSchema() in scope ${a.scopePath}: a schema with $id '${a.id}' is already declared in its descendant scope ${a.other}, which would then see two. ` +
        'They are different schema objects: give one of them another $id, or declare it only in this scope.'
      : `addSchema() in scope ${a.scopePath}: a schema with $id '${a.id}' is already declared in ` +
        `${a.in === 'this' ? `this scope (${a.other})` : `its ancestor scope ${a.other}`}, so this scope would see two. ` +
        (a.same === true ? 'It is the same schema added twice in one scope: remove one of the addSchema() calls (or list it once).'
          : 'They are different schema objects (the same one listed again in a descendant is accepted): give one of them another $id, or remove the duplicate.') }),
  ENC_ERR_SCH_ASYNC: e({ status: null, summary: 'a schema uses $async; asynchronous work belongs in a preHandler hook',
    message: (a: { case: 'route'; part: string; where: string; at: string } | { case: 'shared'; scopePath: string; id: string; at: string }) => a.case === 'route'
      ? `The ${a.part} schema of route ${a.where} uses $async at ${a.at}. ${asyncRefusal}`
      : `addSchema() in scope ${a.scopePath}: schema '${a.id}' uses $async at ${a.at}. ${asyncRefusal}` }),
  ENC_ERR_SCH_ASYNC_RESULT: e({ status: 500, summary: 'a custom validator returned a Promise; validation must be synchronous',
    message: (a: { part: string; method: string; url: string }) => `The ${a.part} validator of route ${a.method} ${a.url} returned a Promise: validation ` +
      'must be synchronous (spec §1.6). Move asynchronous checks into a preHandler hook.' }),
  ENC_ERR_SCH_QUERY_ALIAS_CONFLICT: e({ status: null, summary: 'a route schema has both querystring and its alias query',
    message: (a: { where: string }) => `The schema of route ${a.where} has both querystring and query, which is its alias: keep only one of them.` }),
  ENC_ERR_SCH_RESPONSE_KEY: e({ status: null, summary: 'a response schema key is not a status code, a range key (2xx) or default',
    message: (a: { where: string; key: string; twice?: boolean }) => a.twice === true
      ? `The response schema of route ${a.where} has the range key '${a.key}' twice (in upper and lower case): keep only one of them.`
      : `The response schema of route ${a.where} has the key '${a.key}': use a status code from 100 to 599, a range key from '1xx' to '5xx', or 'default'.` }),
  ENC_ERR_SCH_RESPONSE_CONTENT_TYPES: e({ status: null, summary: 'a response schema is keyed by content type (Fastify 4+), which Fastify 3.27.4 and Enclave do not have',
    message: (a: { where: string; key: string; mediaTypes: readonly string[] }) => `The response ${a.key} schema of route ${a.where} is keyed by content type ` +
      `(content: { ${a.mediaTypes.map((t) => `'${t}'`).join(', ')} }), a Fastify 4+ shape that Fastify 3.27.4 reads as a property named content. ` +
      `Give the status its schema directly (response: { ${a.key}: <the ${a.mediaTypes.includes('application/json') ? "'application/json'" : 'JSON'} entry's schema> }): ` +
      'one schema per status, which serializes the JSON replies.' }),
  ENC_ERR_SCH_PLUGIN_INVALID: e({ status: null, summary: 'a validator.plugins entry is not a function or [function, options]',
    message: (a: { got: string; index?: number }) => a.index === undefined
      ? `validator.plugins is ${a.got}: pass an array of plugins, each a function or [function, options].`
      : `validator.plugins[${a.index}] is ${a.got}: each entry must be a validator plugin function (compatible with ajv 6) or [plugin, options].` }),
  ENC_ERR_SCH_VALIDATION_BUILD: e({ status: null, summary: 'a validator could not be compiled for a route schema part', message: buildMessage }),
  ENC_ERR_SCH_SERIALIZATION_BUILD: e({ status: null, summary: 'a response serializer could not be compiled for a route', message: buildMessage }),
  ENC_ERR_SCH_REF_NOT_VISIBLE: e({ status: null, summary: 'a $ref names a shared schema that is not visible from the route scope',
    message: (a: { route: string; subject: string; schemaId: string; hint: string }) => `${a.route}: ${a.subject}, but no shared schema '${a.schemaId}' is visible from this scope. ${a.hint}` }),
  ENC_ERR_SCH_REF_INVALID: e({ status: null, summary: 'a $ref names a visible (or the local) schema, but the path or anchor inside it does not exist',
    message: (a: { route: string; subject: string; local: true } | { route: string; subject: string; local: false; schemaId: string; owner: string; inside: string }) => a.local
      ? `${a.route}: ${a.subject}, which does not exist inside that schema itself. Add the definition or the subschema with that $id, or fix the pointer.`
      : `${a.route}: ${a.subject}. Shared schema '${a.schemaId}' is visible (declared in ${a.owner}) but has no '${a.inside}' inside it: fix the pointer or the anchor.` }),
  ENC_ERR_SCH_PART_VALIDATOR_MISSING: e({ status: null, summary: 'a per-part validator compiler has no validator for the httpPart',
    message: (a: { asked: string; method: string; url: string; available: string }) => `The per-part validator compiler was asked for ${a.asked} ` +
      `by route ${a.method} ${a.url}, but it only has validators for ${a.available}: add a validator for that part, or remove that part's schema from the route.` }),
  ENC_ERR_SCH_FORMATTER_RESULT: e({ status: 500, summary: 'the schema error formatter did not return an Error',
    message: (a: { got: string; part: string }) => `The schema error formatter returned ${a.got} for a ${a.part} validation failure: it must return an Error (for example new Error(message)).` }),
  ENC_ERR_SCH_UNKNOWN_PART: e({ status: null, summary: 'a route schema has a key that is not a part (body, querystring, query, params, headers, response) nor an OpenAPI annotation',
    message: (a: { where: string; key: string; hint: string }) => `The schema of route ${a.where} has the key '${a.key}'${a.hint}, which is not a part: use body, querystring (or query), params, headers or response. Validation would silently skip it.` }),
  ENC_ERR_SCH_UNKNOWN_KEYWORD: e({ status: null, summary: 'a route or shared schema (or one given to compileValidationSchema()/compileSerializationSchema()) uses a JSON Schema keyword the validator does not know (validator.customKeywords lists custom ones)',
    message: (a: { where: string; key: string; pointer: string; hint: string }) => `${a.where}: unknown JSON Schema keyword '${a.key}' at '${a.pointer}'${a.hint}. ajv and fast-json-stringify would both ignore it. Fix the name, or list a custom keyword in the server option validator.customKeywords.` }),
  ENC_ERR_SCH_REQUIRED_UNDECLARED: e({ status: null, summary: "a schema's required lists a name that is not among its properties but is a likely typo of one (required: ['titel'] beside properties.title): every request would be refused for lacking it",
    message: (a: { where: string; name: string; closest: string; pointer: string }) => `${a.where}: required lists '${a.name}' at '${a.pointer}', which is not among the properties (did you mean '${a.closest}'?). ` +
      `Every request would be refused with "should have required property '${a.name}'". Fix the name in required (or in properties).` }),
  ENC_ERR_SCH_FOREIGN_SCHEMA: e({ status: null, summary: 'a route schema is a zod (or other Standard Schema) object, which only a custom validatorCompiler / serializerCompiler can read, and none is set for it; or addSchema() / a module\'s schemas was given one (shared schemas are JSON Schema, for $ref)',
    message: (a: { where: string; vendor: string; pointer: string; shared?: true }) => a.shared === true
      ? `${a.where} was given a ${a.vendor} schema, not a JSON Schema: shared schemas are what routes reference with $ref, which only JSON Schema has. ` +
        `Convert it and give it an $id (zod 4: { ...z.toJSONSchema(schema, { target: 'draft-7' }), $id: 'Name' }), or use the ${a.vendor} schema itself in the routes' schemas, ` +
        `with compilers that read it (fastify-type-provider-zod's validatorCompiler and serializerCompiler).`
      : `${a.where} is a ${a.vendor} schema${a.pointer === '/' ? '' : ` at '${a.pointer}'`}, not a JSON Schema, ` +
      `and the compiler in effect is the JSON Schema one. Set compilers that read it for this route or an enclosing scope (fastify-type-provider-zod: ` +
      `scope.setValidatorCompiler(validatorCompiler) and scope.setSerializerCompiler(serializerCompiler), or the module/route options of the same names), ` +
      `or convert it to JSON Schema (zod 4: z.toJSONSchema(schema, { target: 'draft-7' }): its default, draft 2020-12, is a $schema ajv 6 refuses).` }),
  ENC_ERR_SCH_CONTROLLER_INVALID: e({ status: null, summary: 'the schemaController option or setSchemaController() is not in Fastify\'s shape, or its bucket lacks what a call needs',
    message: (a: { case: 'option'; where: string; problem: string } | { case: 'bucket'; scopePath: string; problem: string }) => a.case === 'option'
      ? `${a.where}: ${a.problem}. Pass { bucket?: (parentSchemas) => ({ add, getSchema, getSchemas }), compilersFactory?: { buildValidator?, buildSerializer? } }.`
      : `The schemaController bucket of scope ${a.scopePath} ${a.problem}.` }),
}

/** The two build codes share their shapes: a route part, a scope's shared schemas, or a factory's result. */
function buildMessage(a: { case: 'route'; kind: Kind; where: string; reason: string }
  | { case: 'returned'; kind: Kind; got: string; part: string; method: string; url: string; scopePath: string }
  | { case: 'shared'; kind: Kind; scopePath: string; ids: string; reason: string }
  | { case: 'factory'; kind: Kind; got: string; scopePath: string }): string {
  switch (a.case) {
    case 'route': return `Cannot compile the ${a.kind} for ${a.where}: ${a.reason}. Fix the schema, or the ${a.kind} compiler in use for this route.`
    case 'returned': return `The ${a.kind} compiler returned ${a.got} for the ${a.part} schema of route ${a.method} ${a.url} in scope ${a.scopePath}: ` +
      `a ${a.kind} compiler must return a function (${a.kind === 'validator' ? 'data => result' : 'data => string'}).`
    case 'shared': return `Cannot build the ${a.kind} for the shared schemas visible in scope ${a.scopePath} (${a.ids}): ${a.reason}. ` +
      'Fix the shared schema it names, or the validator options and plugins.'
    case 'factory': return `schemaController.compilersFactory.build${a.kind === 'validator' ? 'Validator' : 'Serializer'}() returned ${a.got} for scope ${a.scopePath}: it must return a compiler function.`
  }
}

export type SchemaErrorCode = keyof typeof schemaErrors

/** Builds a coded error of this area from its table entry. */
export const schemaError = errorFactory(schemaErrors)
/** Status and summary per code (the columns of docs/errors.md's table). */
export const schemaErrorCodes = codeSummaries(schemaErrors)

/** True for an error this area already coded (it names the route and the fix; do not wrap it again). */
export function isSchemaError(error: unknown): error is FrameworkError {
  return error instanceof FrameworkError && Object.prototype.hasOwnProperty.call(schemaErrorCodes, error.code)
}

/** How an unexpected value reads in an error message: `null`, `an array`, `a string` ... */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'undefined' ? 'undefined' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
}
