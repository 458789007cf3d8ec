import { markdownCell, markdownText, mermaidText } from '../../kit/markdown.js';
import type { CriticMetrics, StageMetrics } from './metrics-types.js';

// A rate as a percentage, or a dash without data.
const pct = (value: number | null): string => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null): string => (value === null ? '–' : value.toFixed(2));
const usd = (value: number): string => `$${value.toFixed(2)}`;
// A Mermaid node id for a stage (its position, so any stage id is safe).
const node = (index: number): string => `S${index}`;

// One row of the per-stage table.
function stageRow(stage: StageMetrics): string {
  return `| ${markdownCell(stage.stage)} | ${stage.executions} | ${num(stage.meanIterations)} | ${pct(stage.retryRate)} | ${pct(stage.backtrackRate)} | ${pct(stage.completionWithinBudgetRate)} | ${pct(stage.escalationRate)} | ${pct(stage.criticAccuracy)} | ${usd(stage.criticCostUsd)} / ${usd(stage.generatorCostUsd)} |`;
}

// The Mermaid flow: the stages in order, each with its retry rate as a self-loop and the route backs as dashed edges.
function flow(metrics: CriticMetrics): string[] {
  const index = new Map(metrics.stages.map((stage, i) => [stage.stage, i]));
  const lines = ['```mermaid', 'flowchart LR'];
  metrics.stages.forEach((stage, i) => {
    lines.push(`  ${node(i)}["${mermaidText(stage.stage)}<br/>iterations ${num(stage.meanIterations)}"]`);
    if (i > 0) lines.push(`  ${node(i - 1)} --> ${node(i)}`);
    if (stage.decisions > 0) lines.push(`  ${node(i)} -->|retry ${pct(stage.retryRate)}| ${node(i)}`);
  });
  for (const route of metrics.routesBack) {
    const from = index.get(route.from);
    const to = index.get(route.to);
    if (from === undefined || to === undefined) continue;
    const share = metrics.stages[from]?.decisions ?? 0;
    lines.push(`  ${node(from)} -.->|back ${pct(share === 0 ? null : route.count / share)}| ${node(to)}`);
  }
  lines.push('```');
  return lines;
}

/**
 * Renders {@link CriticMetrics} as Markdown: the overall figures, a table per
 * stage, the health flags, and a Mermaid flow of the stages annotated with
 * their retry and backtrack rates. Pure.
 *
 * @example
 * ```ts
 * await writeFile('critics.md', renderCriticReport(computeCriticMetrics(results)));
 * ```
 * @public
 */
export function renderCriticReport(metrics: CriticMetrics): string {
  const o = metrics.overall;
  const lines = [
    '# Staged critics report',
    '',
    `${o.executions} execution${o.executions === 1 ? '' : 's'}: ${pct(o.completionRate)} completed, ${pct(o.escalationRate)} escalated. ${o.decisions} critic decisions: ${pct(o.retryRate)} within-stage retries (target 10–30%), ${pct(o.backtrackRate)} route backs (target 5–15%), accuracy ${pct(o.criticAccuracy)}.`,
    '',
    `Critic cost ${usd(o.criticCostUsd)} against generator cost ${usd(o.generatorCostUsd)} (ratio ${num(o.criticToGeneratorCost)}); rework ${usd(o.reworkCostUsd)}.`,
    '',
    '## Health',
    '',
    ...(metrics.flags.length === 0
      ? ['No flags: retry and backtrack rates are inside the target bands.']
      : metrics.flags.map(
          (flag) =>
            `- **${flag.code}**${flag.stage === undefined ? '' : ` (${markdownText(flag.stage)})`}: ${markdownText(flag.message)}`,
        )),
    '',
    '## Stages',
    '',
    '| stage | executions | mean iterations | retries | route backs | within budget | escalated | critic accuracy | critic / generator cost |',
    '|---|---|---|---|---|---|---|---|---|',
    ...metrics.stages.map(stageRow),
    '',
    '## Flow',
    '',
    ...flow(metrics),
    '',
  ];
  return lines.join('\n');
}
