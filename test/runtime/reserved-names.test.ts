import { expect } from 'chai'
import { createServer, isFrameworkError, type Request, type Reply } from '../../src/runtime'

/** Every name a live object answers to, up to Object.prototype: what a decorator would shadow. */
function membersOf(object: object): string[] {
  const names = new Set<string>()
  for (let o: object | null = object; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) names.add(name)
  }
  return [...names]
}

function refusal(fn: () => unknown): string | undefined {
  try { fn() } catch (error) { return isFrameworkError(error) ? error.code : String(error) }
  return undefined
}

describe('runtime: reserved decorator names come from the request and reply classes (issue 11)', () => {
  let request: Request
  let reply: Reply

  before(async () => {
    const app = createServer()
    app.get('/', (req, rep) => { request = req; reply = rep; return { ok: true } })
    expect((await app.inject('/')).statusCode).to.equal(200)
  })

  it('decorateRequest refuses every member of a real request (own fields, getters, methods)', () => {
    const names = membersOf(request)
    expect(names).to.include.members(['id', 'params', 'signal', 'aborted', 'headers', 'abortController'])
    for (const name of names) {
      expect(refusal(() => createServer().decorateRequest(name, 1)), name).to.equal('ENC_ERR_DEC_RESERVED')
    }
  })

  it('decorateReply refuses every member of a real reply, and then', () => {
    const names = membersOf(reply)
    expect(names).to.include.members(['send', 'code', 'state', 'deadlineList', 'timedOut'])
    for (const name of [...names, 'then']) {
      expect(refusal(() => createServer().decorateReply(name, 1)), name).to.equal('ENC_ERR_DEC_RESERVED')
    }
  })

  it('a name that is not a member is accepted', () => {
    expect(refusal(() => createServer().decorateRequest('user', null).decorateReply('view' as string, null))).to.equal(undefined)
  })
})
