// The seed's table, reproduced: a seeded population of features through the seed's pipeline on the real
// StagedPipeline, with and without critics; prints post-deployment rework, stage executions and rework compute beside
// the seed's figures, the parameters behind them, and the critics' report (outcome accuracy, shift left, standing).
// Exits non-zero when the relations the seed claims do not hold.
import { criticStanding, renderCriticReport } from 'goal-loop/critics';
import { type ArmFigures, runArm, SEED_PARAMETERS } from './economics-model.js';

const p = SEED_PARAMETERS;
const without = await runArm(p, false);
const withCritics = await runArm(p, true);

const pct = (value: number): string => `${(value * 100).toFixed(1)} %`;
const usd = (value: number): string => `$${value.toFixed(2)}`;
const times = (value: number): string => `${value.toFixed(2)}×`;
const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const stages = withCritics.stageExecutionsPerFeature / without.stageExecutionsPerFeature;
const lessRework = without.reworkComputeUsdPerFeature / withCritics.reworkComputeUsdPerFeature;
const arm = (name: string, figures: ArmFigures) =>
  row([
    name,
    pct(figures.postDeploymentRework),
    figures.stageExecutionsPerFeature.toFixed(2),
    usd(figures.reworkComputeUsdPerFeature),
    usd(figures.criticComputeUsdPerFeature),
  ]);

console.log(`# The seed's economics: ${p.features} features, seed "${p.seed}"\n`);
console.log(
  row([
    '',
    'post-deployment rework',
    'stage executions / feature',
    'rework compute / feature',
    'critic compute / feature',
  ]),
);
console.log(row(['---', '---', '---', '---', '---']));
console.log(arm('without critics', without));
console.log(arm('with critics', withCritics));
console.log(row(['ratio', '', `${times(stages)} more`, `${times(lessRework)} less`, '']));
console.log(row(['seed', '40 % vs 8 %', '2.3× more', '3.1× less', '']));
console.log(`
Parameters: a generator call's output carries a defect born at its stage with chance plan ${p.defectRate.plan}, code ${p.defectRate.code}, test ${p.defectRate.test} (deploy none);
each critic rejects a defective output with chance ${p.detection.plan} (plan), ${p.detection.code} (code), ${p.detection.test} (test) and a clean one with chance ${p.falseAlarm};
the Code and Test Critics find a defect in the accepted plan / code with chance ${p.upstreamDetection} and route back to it; retry budget 3 (then accept with gaps), 3 route backs at most.
A generator call costs plan $${p.generatorCostUsd.plan}, code $${p.generatorCostUsd.code}, test $${p.generatorCostUsd.test}, deploy $${p.generatorCostUsd.deploy}; a critic call $${p.criticCostUsd}.
A defect that reaches deployment costs ${p.lateFixMultiplier}× the generator work from its origin stage to deploy to fix.
Stage executions are generator and critic calls; rework compute is generator calls beyond each stage's first plus the post-deployment fixes.
`);

const standing = criticStanding(withCritics.metrics);
console.log(renderCriticReport(withCritics.metrics, { standing }));

const holds = [
  [withCritics.postDeploymentRework < without.postDeploymentRework, 'post-deployment rework is lower with critics'],
  [stages > 1, 'the pipeline runs more stage executions with critics'],
  [lessRework > 1, 'total rework compute is lower with critics'],
] as const;
for (const [ok, what] of holds) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
if (holds.some(([ok]) => !ok)) process.exitCode = 1;
