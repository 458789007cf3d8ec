// LangGraph.js and its SQLite checkpointer, from bench/langgraph (its own package: better-sqlite3 is a native module
// the root install must not build). Installed there on first use; a failed install is a reason to skip, not a crash.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('./langgraph/', import.meta.url));

/** A compiled one-node graph: invoke() is one superstep, checkpointed by the saver it was compiled with. */
export interface OneNodeGraph {
  invoke(input: { n: number }, config: { configurable: { thread_id: string } }): Promise<unknown>;
}

/** What the LangGraph rows need: graphs over an in-memory saver and over SQLite savers in a file. */
export interface LangGraph {
  readonly version: string;
  memoryGraph(): OneNodeGraph;
  /** `synchronous`: 'FULL', or null for the saver as shipped (WAL, better-sqlite3's default NORMAL). */
  sqliteGraph(file: string, synchronous: 'FULL' | null): OneNodeGraph;
}

// Installs bench/langgraph's locked dependencies once (better-sqlite3 compiles for a minute or two).
function install(): void {
  if (existsSync(`${DIR}node_modules/@langchain/langgraph-checkpoint-sqlite`)) return;
  console.log('  (installing bench/langgraph: LangGraph.js and better-sqlite3, compiled once)');
  execFileSync('npm', ['ci', '--prefix', DIR, '--no-audit', '--no-fund'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** LangGraph.js, or why it could not be loaded. */
export function loadLangGraph(): LangGraph | { readonly skipped: string } {
  try {
    install();
    const require = createRequire(DIR);
    const { Annotation, END, MemorySaver, START, StateGraph } = require('@langchain/langgraph');
    const { SqliteSaver } = require('@langchain/langgraph-checkpoint-sqlite');
    const version = (require('@langchain/langgraph/package.json') as { version: string }).version;
    const State = Annotation.Root({ n: Annotation() });
    const compile = (checkpointer: unknown): OneNodeGraph =>
      new StateGraph(State)
        .addNode('step', (state: { n: number }) => ({ n: state.n + 1 }))
        .addEdge(START, 'step')
        .addEdge('step', END)
        .compile({ checkpointer });
    return {
      version,
      memoryGraph: () => compile(new MemorySaver()),
      sqliteGraph: (file, synchronous) => {
        const saver = SqliteSaver.fromConnString(file);
        saver.setup();
        if (synchronous !== null) saver.db.pragma(`synchronous = ${synchronous}`);
        return compile(saver);
      },
    };
  } catch (error) {
    return { skipped: error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error) };
  }
}
