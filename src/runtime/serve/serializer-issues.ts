/**
 * The Standard Schema issues (standardschema.dev: zod's, valibot's) behind a serializer's error,
 * as ` (/id Invalid input: ..., /title ...)`; '' when it has none. fastify-type-provider-zod's
 * serializer throws "Response doesn't match the schema" with the ZodError only as its `cause`, so
 * without this the log says a response failed but not which field.
 */
export function serializerIssues(error: unknown): string {
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined
  const issues = typeof cause === 'object' && cause !== null ? (cause as { issues?: unknown }).issues : undefined
  if (!Array.isArray(issues) || issues.length === 0) return ''
  const shown = issues.slice(0, 5).map((issue: { path?: unknown; message?: unknown }) => {
    const path = Array.isArray(issue.path) ? issue.path.map((key) => String(typeof key === 'object' && key !== null ? (key as { key?: unknown }).key : key)) : []
    return `/${path.join('/')} ${String(issue.message)}`
  })
  return ` (${shown.join(', ')}${issues.length > shown.length ? `, and ${issues.length - shown.length} more` : ''})`
}
