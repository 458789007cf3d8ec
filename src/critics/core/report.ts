import { markdownCell, markdownText, mermaidText } from '../../kit/markdown.js';
import type { CriticMetrics, StageMetrics } from './metrics-types.js';
import type { StandingReport } from './standing.js';

// A rate as a percentage, or a dash without data.
const pct = (value: number | null): string => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null): string => (value === null ? '–' : value.toFixed(2));
const usd = (value: number): string => `$${value.toFixed(2)}`;
// A Mermaid node id for a stage (its position, so any stage id is safe).
const node = (index: number): string => `S${index}`;

// One row of the per-stage table.
function stageRow(stage: StageMetrics): string {
  return `| ${markdownCell(stage.stage)} | ${stage.executions} | ${num(stage.meanIterations)} | ${pct(stage.retryRate)} | ${pct(stage.backtrackRate)} | ${pct(stage.completionWithinBudgetRate)} | ${pct(stage.escalationRate)} | ${pct(stage.criticAccuracy)} | ${pct(stage.predictiveAccuracy)} | ${usd(stage.criticCostUsd)} / ${usd(stage.generatorCostUsd)} |`;
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

// With outcomes: the rework rate, where defects were found, and what each critic cost against what it prevented.
function outcomeSection(metrics: CriticMetrics): string[] {
  const summary = metrics.outcomes;
  if (summary === null) return [];
  const unmatched =
    summary.unmatched.length === 0 ? '' : ` ${summary.unmatched.length} outcomes name no execution here.`;
  return [
    '## Outcomes',
    '',
    `${summary.recorded} executions with an outcome: ${pct(metrics.overall.reworkRate)} needed rework (${summary.postDeployment} found after deployment); predictive accuracy ${pct(metrics.overall.predictiveAccuracy)}.${unmatched}`,
    '',
    '| defects found at | defects | share |',
    '|---|---|---|',
    ...metrics.shiftLeft.map((entry) => `| ${markdownCell(entry.at)} | ${entry.defects} | ${pct(entry.share)} |`),
    '',
    '| critic | caught | cost | rework prevented | saved per dollar |',
    '|---|---|---|---|---|',
    ...metrics.criticRoi.map(
      (roi) =>
        `| ${markdownCell(roi.stage)} | ${roi.caught} | ${usd(roi.criticCostUsd)} | ${roi.preventedUsd === null ? '–' : usd(roi.preventedUsd)} | ${num(roi.savedPerCost)} |`,
    ),
    '',
  ];
}

// Each critic's standing with its reasons.
function standingSection(report: StandingReport | undefined): string[] {
  if (report === undefined) return [];
  return [
    '## Standing',
    '',
    '| critic | standing | why |',
    '|---|---|---|',
    ...report.critics.map(
      (critic) => `| ${markdownCell(critic.stage)} | ${critic.standing} | ${markdownCell(critic.reasons.join('; '))} |`,
    ),
    '',
  ];
}

/** Renders {@link CriticMetrics} as Markdown. @public */
export function renderCriticReport(
  metrics: CriticMetrics,
  options: { readonly standing?: StandingReport } = {},
): string {
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
    '| stage | executions | mean iterations | retries | route backs | within budget | escalated | critic accuracy | outcome accuracy | critic / generator cost |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...metrics.stages.map(stageRow),
    '',
    ...outcomeSection(metrics),
    ...standingSection(options.standing),
    '## Flow',
    '',
    ...flow(metrics),
    '',
  ];
  return lines.join('\n');
}
