import { RequestImpl, reservedRequestNames as requestOwn } from '../serve/request'
import { ReplyImpl, reservedReplyNames as replyOwn } from '../serve/reply'
import { compileValidationSchema, getValidationFunction, validateInput } from './request-validation'
import { compileSerializationSchema, getSerializationFunction, serializeInput } from './reply-serialization'
import { replyThen } from './reply-then'
import { replyGetDecorator, requestGetDecorator, requestSetDecorator } from './get-decorator'

/**
 * Fastify 4/5's request, reply and scope APIs beyond Fastify 3's (docs/fastify-compat.md, "Coming
 * from Fastify 4 or 5"), kept out of serve/: they are installed once, on the prototypes, when the
 * server module loads, so that a request and a reply carry nothing for them and the request path
 * is the same code with or without them. The scope's hasRoute()/findRoute() are in route-lookup.ts.
 */

function install(prototype: object, methods: Record<string, Function>): void {
  for (const name of Object.keys(methods)) {
    Object.defineProperty(prototype, name, { value: methods[name], writable: true, configurable: true, enumerable: false })
  }
}

const requestMethods = { getValidationFunction, compileValidationSchema, validateInput, getDecorator: requestGetDecorator, setDecorator: requestSetDecorator }
const replyMethods = { getSerializationFunction, compileSerializationSchema, serializeInput, then: replyThen, getDecorator: replyGetDecorator }

install(RequestImpl.prototype, requestMethods)
install(ReplyImpl.prototype, replyMethods)

/** The names a request decorator may not take: the request's own members and the ones above. */
export const reservedRequestNames: ReadonlySet<string> = new Set([...requestOwn, ...Object.keys(requestMethods)])
/** The names a reply decorator may not take (`then` was already one). */
export const reservedReplyNames: ReadonlySet<string> = new Set([...replyOwn, ...Object.keys(replyMethods)])
