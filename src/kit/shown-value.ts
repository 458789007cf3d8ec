/** A value as an error message shows it. @internal */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}

/**
 * `text` cut to at most `max` characters, its last one `…` when cut: how a message quotes free text of any length (a
 * runner's detail, a label). @internal
 */
export function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
