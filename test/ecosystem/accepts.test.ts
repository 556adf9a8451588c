import { expect } from 'chai'
import request from 'supertest'
import accepts from '@fastify/accepts'
import type { Reply, Request } from '../../src/runtime'
import { affected, modes, topology, unaffected } from './helpers'

type AcceptsRequest = Request & {
  type(types: string[]): string | false
  language(languages: string[]): string | false
  encodings(): string[]
  accepts(): { types(): string[] }
}
type AcceptsReply = Reply & { requestType(types: string[]): string | false }

/** Content negotiation as the README shows it: the answer follows the Accept header. */
const probe = async (req: Request, reply: Reply) => {
  const r = req as Partial<AcceptsRequest>
  if (typeof r.type !== 'function') return { accepts: false }
  const type = r.type(['json', 'html'])
  const fromReply = (reply as AcceptsReply).requestType(['json', 'html'])
  const language = r.language!(['en', 'fr'])
  if (type === 'html') return reply.type('text/html').send(`<p>${language}</p>`)
  if (type === false) return reply.code(406).send({ message: 'json or html only' })
  return { type, fromReply, language, encodings: r.encodings!(), all: r.accepts!().types() }
}

// @fastify/accepts README: request.accepts() (the `accepts` module), request.type/language/
// encoding/charset and their plurals; with `decorateReply: true`, reply.requestType and friends.
describe('@fastify/accepts in Enclave', () => {
  for (const mode of modes) {
    it(`negotiates on the Accept headers in the registering context and its descendants only (${mode})`, async () => {
      const app = await topology(mode, { plugin: accepts, options: { decorateReply: true }, probe })
      for (const path of affected) {
        const json = await request(app.server).get(path).set('accept', 'application/json, text/html;q=0.5').set('accept-language', 'fr, en;q=0.8').set('accept-encoding', 'gzip')
          .expect(200)
        expect(json.body).to.deep.equal({ type: 'json', fromReply: 'json', language: 'fr', encodings: ['gzip', 'identity'], all: ['application/json', 'text/html'] })
        const html = await request(app.server).get(path).set('accept', 'text/html').expect(200)
        expect(html.text).to.equal('<p>en</p>')
        await request(app.server).get(path).set('accept', 'image/png').expect(406, { message: 'json or html only' })
      }
      for (const path of unaffected) await request(app.server).get(path).expect(200, { accepts: false })
    })
  }
})
