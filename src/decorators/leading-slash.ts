/**
 * A decorator-layer path or prefix as NestJS users write it (`'books'`, `':id'`, `'api'`) made
 * the runtime's (`/books`): the decorators own their spelling, while the runtime API keeps
 * Fastify's rule that a path starts with '/'. '' stays '' (the prefix itself).
 */
export function withLeadingSlash(path: string): string {
  return path === '' || path.startsWith('/') ? path : `/${path}`
}
