/** `/notes/:id(^\\d+)/files/*` -> `/notes/{id}/files/{wildcard}`, with the parameters and their patterns. */
export function pathTemplate(url: string): { template: string; params: Array<{ name: string; pattern: string | null }> } {
  const params: Array<{ name: string; pattern: string | null }> = []
  const template = url.replace(/:([A-Za-z0-9_]+)(\((?:\\.|[^\\)])*\))?|\*/g, (whole, name: string | undefined, regex: string | undefined) => {
    if (whole === '*') {
      params.push({ name: '*', pattern: null })
      return '{*}'
    }
    params.push({ name: name!, pattern: regex === undefined ? null : regex.slice(1, -1) })
    return `{${name}}`
  })
  return { template, params }
}
