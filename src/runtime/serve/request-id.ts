/** The text of the server's own request id numbered `count`: `req-1`, ..., `req-a`, as Fastify 3 makes them. */
export function countedIdText(count: number): string {
  return `req-${count.toString(36)}`
}
