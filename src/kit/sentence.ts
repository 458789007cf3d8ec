/** The text ending a sentence: a full stop added unless the text already ends one (`.`, `?`, `!`). @internal */
export function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
