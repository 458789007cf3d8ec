import { mermaidText } from '../../kit/markdown.js';
import { clipped } from '../../kit/shown-value.js';
import type { ReportIteration, RunReport } from './run-report-model.js';

// The longest reason or stage list a node shows (the tables above carry the whole text).
const MAX_LABEL = 80;
const clip = (text: string): string => clipped(text, MAX_LABEL);

// The lines of an iteration's node label.
function iterationLabel(row: ReportIteration | undefined, n: number): string[] {
  const lines = [`iteration ${n}`];
  if (row === undefined) return lines;
  const ran = [...new Set(row.stages.map((stage) => stage.stage))];
  // A long list (a first pass over the whole pipeline) shows its ends; the iteration's table lists every stage.
  const shown = ran.length > 4 ? `${ran.length} stages, ${ran[0]} … ${ran.at(-1)}` : ran.join(', ');
  lines.push(ran.length === 0 ? 'ran no stage' : clip(`ran ${shown}`));
  const result = row.evaluation ?? row.evaluated;
  lines.push(result === null ? 'not evaluated' : `${result.status} · score ${result.score}`);
  return lines;
}

/** The loop's path as a Mermaid flowchart, one line per element. @internal */
export function runReportFlow(report: RunReport): string[] {
  const rows = new Map(report.iterations.map((row) => [row.iteration, row]));
  const lines = ['flowchart TD'];
  const declared = new Set<number>();
  let previous: string | null = null;
  report.path.forEach((step, index) => {
    let id: string;
    if (step.kind === 'iteration') {
      id = `I${step.iteration}`;
      if (!declared.has(step.iteration)) {
        declared.add(step.iteration);
        const label = iterationLabel(rows.get(step.iteration), step.iteration).map(mermaidText).join('<br/>');
        lines.push(`  ${id}["${label}"]`);
      }
    } else {
      id = `S${index}`;
      const label = [step.stop.stoppedOn, clip(step.stop.reason)].filter((part) => part !== '').map(mermaidText);
      lines.push(`  ${id}(["${label.join('<br/>')}"])`);
      lines.push(`  class ${id} ${step.stop.stoppedOn === 'complete' ? 'done' : 'stop'}`);
    }
    if (previous !== null)
      lines.push(step.via === null ? `  ${previous} --> ${id}` : `  ${previous} -->|"${mermaidText(step.via)}"| ${id}`);
    previous = id;
  });
  if (report.path.length === 0) lines.push('  empty(["no iteration recorded"])');
  if (report.open !== null && report.open.pausedBy === null && previous !== null)
    lines.push(`  open(["${mermaidText(`session open: ${report.open.phase}`)}"])`, `  ${previous} -.-> open`);
  lines.push('  classDef done stroke-width:3px', '  classDef stop stroke-dasharray:4 2');
  return lines;
}
