import { codeSummaries, defineError as e, errorFactory } from '../runtime/errors/define-errors'

/**
 * Errors of contracts and the typed client, each declared once (status, docs/errors.md summary, message
 * template). Imports only the error table's two small files, so a front end bundling
 * `enclave/client` pulls nothing of the server.
 */
export const contractErrors = {
  ENC_ERR_CONTRACT_INVALID: e({ status: null, summary: "defineContract() was given a route whose method is not an HTTP method, whose url does not start with '/', or that is not an object",
    message: (a: { name: string; problem: string }) => `defineContract(): route ${a.name} ${a.problem}. ` +
      "A route is { method: 'GET', url: '/notes/:id', schema?: { params, querystring, body, headers, response } }." }),
  ENC_ERR_CONTRACT_UNIMPLEMENTED: e({ status: null, summary: 'a contract the server implements has a route no handler (implement()) or controller method (@Implements) serves',
    message: (a: { where: string; missing: readonly string[] }) => `${a.where}: the contract's route(s) ${a.missing.join(', ')} have no implementation. ` +
      'Every route of a contract is implemented exactly once: add a handler under that name to implement(scope, api, { ... }), ' +
      'or an @Implements(api.<name>) method to a controller of the app.' }),
  ENC_ERR_CONTRACT_DUPLICATE: e({ status: null, summary: 'a contract route is implemented twice (two @Implements methods, or implement() given a name twice)',
    message: (a: { route: string; by: readonly string[] }) => `The contract route ${a.route} is implemented more than once (${a.by.join(' and ')}). ` +
      'Every route of a contract is implemented exactly once: remove all but one.' }),
  ENC_ERR_CONTRACT_UNKNOWN_ROUTE: e({ status: null, summary: "implement() was given a handler under a name the contract does not have, or @Implements() something that is no route of a defineContract() contract",
    message: (a: { where: string; name: string; known: readonly string[] }) => `${a.where}: ${a.name} is no route of the contract` +
      (a.known.length > 0 ? ` (its routes: ${a.known.join(', ')})` : '') + '. Implement only routes declared with defineContract(), under their names.' }),
  ENC_ERR_CLIENT_NETWORK: e({ status: 'none', summary: 'the typed client: the request got no HTTP answer (connection refused or reset, DNS, the inject transport failed); thrown, never returned as a status (the error is in `cause`)',
    message: (a: { route: string; method: string; url: string; reason: string }) => `${a.route}: ${a.method} ${a.url} got no answer: ${a.reason}.` }),
  ENC_ERR_CLIENT_RESPONSE: e({ status: 'none', summary: 'the typed client: an answer whose Content-Type says JSON has a body that is not JSON (thrown; the parse error is in `cause`)',
    message: (a: { route: string; type: string }) => `${a.route}: the answer's Content-Type is ${a.type} and its body is not JSON.` }),
  ENC_ERR_CLIENT_OPTIONS: e({ status: null, summary: 'createClient() was given an unknown option (did you mean ...), neither baseUrl nor app, both, or no fetch where the platform has none; or a call a path parameter missing',
    message: (a: { problem: string }) => `createClient(): ${a.problem}.` }),
}

export type ContractErrorCode = keyof typeof contractErrors
export const contractError = errorFactory(contractErrors)
/** Status and summary per code (the columns of docs/errors.md's table). */
export const contractErrorCodes = codeSummaries(contractErrors)
