import { describe, expect, it } from 'vitest';
import { extractMermaidBlocks, mermaidError } from '../../scripts/mermaid-parse.js';
import { computeCriticMetrics } from '../../src/critics/core/metrics.js';
import { renderCriticReport } from '../../src/critics/core/report.js';
import { GoalLoop } from '../../src/goal/goal-loop.js';
import { renderRunReport } from '../../src/goal/run-report.js';
import { createManualClock } from '../../src/testing/manual-clock.js';
import { createMemoryFileSystem } from '../../src/testing/memory-file-system.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';

// Stage ids that would break an unescaped Mermaid label or edge.
const HOSTILE = ['a"]-->x', 'b|c <script>', 'end', 'd#quot;e`'] as const;

describe('Mermaid blocks checked by mermaid’s own parser', () => {
  it('extracts every fenced mermaid block with its line, closed or not', () => {
    const text = '# r\n```mermaid\nflowchart TD\n  A --> B\n```\n```js\nx\n```\n```mermaid\nflowchart LR\n  C';
    expect(extractMermaidBlocks(text)).toEqual([
      { line: 3, source: 'flowchart TD\n  A --> B' },
      { line: 10, source: 'flowchart LR\n  C' },
    ]);
  });

  it('rejects a broken diagram (the check can fail)', async () => {
    expect(await mermaidError('flowchart TD\n  A["x --> B')).toMatch(/Parse error/);
    expect(await mermaidError('flowchart TD\n  A["x"] -->|"retry b"| B(["complete"])')).toBeNull();
  });

  it('accepts the run report of a loop whose stage ids and details are hostile to Mermaid', async () => {
    const fs = createMemoryFileSystem();
    const [first, second, third, fourth] = HOSTILE;
    const runner = createScriptedStageRunner({
      [first]: { status: 'passed' },
      [second]: [{ status: 'failed', detail: 'line 1\n"quoted" | <b>bold</b> `code`' }, { status: 'passed' }],
      [third]: { status: 'passed' },
      [fourth]: { status: 'passed' },
    });
    const loop = new GoalLoop({ fs, runDir: 'runs/r', stages: [...HOSTILE], runner, clock: createManualClock(0) });
    expect((await loop.run()).stoppedOn).toBe('complete');
    const blocks = extractMermaidBlocks(await renderRunReport({ fs, runDir: 'runs/r' }));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.source).toContain('I1 -->|"retry b#124;c #lt;script#gt;"| I2');
    expect(await mermaidError(blocks[0]?.source ?? '')).toBeNull();
  });

  it('accepts the report of a run nothing was recorded for', async () => {
    const [block] = extractMermaidBlocks(await renderRunReport({ fs: createMemoryFileSystem(), runDir: 'runs/none' }));
    expect(await mermaidError(block?.source ?? '')).toBeNull();
  });

  it('accepts the critics report', async () => {
    const [block] = extractMermaidBlocks(renderCriticReport(computeCriticMetrics([])));
    expect(block).toBeDefined();
    expect(await mermaidError(block?.source ?? '')).toBeNull();
  });
});
