/**
 * The longest client-sent text (a property name, the data path its keys make) an error message or
 * its log line repeats whole. Longer text is cut to its first 100 characters and its length: a
 * 300 KB JSON key otherwise came back in a 300 KB 400 and six times in its log line (1.8 MB).
 */
export const CLIENT_TEXT_LIMIT = 120

export function clipClientText(text: string): string {
  return text.length > CLIENT_TEXT_LIMIT ? `${text.slice(0, 100)}... (${text.length} characters)` : text
}
