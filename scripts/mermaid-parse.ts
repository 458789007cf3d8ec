// Mermaid's own parser in Node, for checking the diagrams the library renders (run reports, critics reports).
//
// Method: `mermaid.parse` of the installed mermaid 11 — diagram detection, then the diagram's own grammar
// (for a flowchart its Jison parser) filling its FlowDB, exactly as a browser does before drawing. Node has no
// DOM, so DOMPurify (which mermaid calls while filling the DB, to strip unsafe HTML from label text) loads
// without `sanitize` and `addHook`; they are given pass-through versions before mermaid is loaded. Sanitizing
// only rewrites label text and never rejects input, so syntax is decided by mermaid's parser alone.
import DOMPurify from 'dompurify';

/** One ```mermaid block of a Markdown text: its first line number (1-based) and its source. */
export interface MermaidBlock {
  readonly line: number;
  readonly source: string;
}

/** The ```mermaid fenced blocks of a Markdown text, in order. */
export function extractMermaidBlocks(markdown: string): MermaidBlock[] {
  const blocks: MermaidBlock[] = [];
  const lines = markdown.split('\n');
  let start = -1;
  let body: string[] = [];
  lines.forEach((line, index) => {
    if (start === -1) {
      if (/^\s*```mermaid\s*$/.test(line)) {
        start = index + 2;
        body = [];
      }
      return;
    }
    if (/^\s*```\s*$/.test(line)) {
      blocks.push({ line: start, source: body.join('\n') });
      start = -1;
      return;
    }
    body.push(line);
  });
  // A block never closed is still checked (Markdown renders it to the end of the file).
  if (start !== -1) blocks.push({ line: start, source: body.join('\n') });
  return blocks;
}

type Parse = (text: string) => Promise<unknown>;
let parser: Promise<Parse> | null = null;

// Loads mermaid once, after DOMPurify has what mermaid calls on it.
function loadParser(): Promise<Parse> {
  parser ??= (async () => {
    const purify = DOMPurify as unknown as Record<string, unknown>;
    if (typeof purify.sanitize !== 'function') purify.sanitize = (text: unknown) => String(text);
    if (typeof purify.addHook !== 'function') purify.addHook = () => undefined;
    const { default: mermaid } = await import('mermaid');
    return (text) => mermaid.parse(text);
  })();
  return parser;
}

/** `null` when mermaid's parser accepts the diagram, else its error message. */
export async function mermaidError(source: string): Promise<string | null> {
  const parse = await loadParser();
  try {
    await parse(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
