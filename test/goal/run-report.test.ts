import { describe, expect, it } from 'vitest';
import { renderRunReport } from '../../src/goal/run-report.js';
import { createScriptedStageRunner } from '../../src/testing/scripted-stage-runner.js';
import { abortsDuring, fileExists, goalJson, harness, PATHS, passed, RUN, runFile, writes } from './helpers.js';

// The body of the report's one Mermaid block.
const mermaidOf = (markdown: string): string => /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
// The lines of the report's section headed `title`.
const section = (markdown: string, title: string): string =>
  markdown.split(/^#{2,3} /m).find((part) => part.startsWith(title)) ?? '';

// A run of two iterations: stage b fails and the report file is missing, the loop retries b and c, then passes.
async function twoIterationRun() {
  const h = harness({
    [runFile('goal.json')]: goalJson([fileExists('report', 'out/report.json', ['c'], { run_relative: true })]),
  });
  const runner = createScriptedStageRunner({
    a: { status: 'passed', costUsd: 0.01 },
    b: [
      { status: 'failed', detail: 'compile error | x.ts', costUsd: 0.02 },
      { status: 'passed', costUsd: 0.02 },
    ],
    c: [
      { status: 'passed', costUsd: 0.005 },
      writes('out/report.json', () => ({ ok: true }), { status: 'passed', costUsd: 0.005 }),
    ],
  });
  const result = await h.loop(runner).run();
  expect(result.stoppedOn).toBe('complete');
  return h;
}

describe('renderRunReport over a run made by GoalLoop', () => {
  it('shows every iteration with its stages, status, score, failing criteria, retry, spend and stop', async () => {
    const h = await twoIterationRun();
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    expect(report).toContain('Goal `test-goal` · 2 iteration(s) in 1 session(s) · spent $0.06 (metrics.json).');
    const first = section(report, 'Iteration 1');
    expect(first).toContain(
      [
        '|---|---|---|---|---|',
        '| a | passed | 0 ms | $0.01 |  |',
        '| b | failed | 0 ms | $0.02 | compile error \\| x.ts |',
        '| c | passed | 0 ms | $0.005 |  |',
        '',
      ].join('\n'),
    );
    expect(first).toContain('Evaluation: **RETRY**, score 50 (min 100)');
    expect(first).toContain('- `report` (file_exists) FAIL: out/report.json does not exist.');
    expect(first).toContain('- `stage:b` (built-in) FAIL: Stage b failed: compile error | x.ts.');
    expect(first).toContain('Retrying `b`, `c`:');
    expect(first).toContain('Stage spend: $0.035.');
    const second = section(report, 'Iteration 2');
    expect(second).not.toContain('| a |');
    expect(second).toContain('| b | passed |');
    expect(second).toContain('Evaluation: **PASS**, score 100 (min 100)');
    expect(second).not.toContain('FAIL');
    expect(section(report, 'Stop')).toContain('Stopped on **complete** at iteration 2: Goal test-goal is met');
    expect(report).not.toContain('## Unreadable files');
  });

  it('counts a stage cost reported after the loop stopped waiting in the iteration its stage ran in', async () => {
    const h = await twoIterationRun();
    const late = { stage: 'b', iteration: 1, cost_usd: 0.5, settled_at: '2030-01-01T00:00:00.000Z' };
    await h.fs.writeText(runFile('spend-pending/1-b-late.json'), JSON.stringify(late));
    // A new session folds it first (then finds the goal still met).
    const runner = createScriptedStageRunner({ a: passed, b: passed, c: passed });
    await h.loop(runner).run();
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    expect(section(report, 'Iteration 1')).toContain(
      'Stage spend: $0.535 ($0.5 of it reported after the loop stopped waiting).',
    );
    expect(section(report, 'Iteration 2')).toContain('Stage spend: $0.025.');
  });

  it('draws the path: iterations as nodes, the retried stages on the edge, the final decision', async () => {
    const h = await twoIterationRun();
    const flow = mermaidOf(await renderRunReport({ fs: h.fs, runDir: RUN }));
    expect(flow.split('\n').filter((line) => line.includes('-->'))).toEqual([
      '  I1 -->|"retry b, c"| I2',
      '  I2 --> S2',
    ]);
    expect(flow).toContain('I1["iteration 1<br/>ran a, b, c<br/>RETRY · score 50"]');
    expect(flow).toContain('I2["iteration 2<br/>ran b, c<br/>PASS · score 100"]');
    expect(flow).toMatch(/S2\(\["complete<br\/>Goal test-goal is met/);
  });

  it('draws an abort, its resume and a new session after a stop', async () => {
    const h = harness();
    const controller = new AbortController();
    const aborted = await h
      .loop(createScriptedStageRunner({ a: passed, b: abortsDuring(controller), c: passed }), {
        signal: controller.signal,
      })
      .run();
    expect(aborted.stoppedOn).toBe('aborted');
    const paused = await renderRunReport({ fs: h.fs, runDir: RUN });
    expect(section(paused, 'Iteration 1')).toContain('| b | interrupted |');
    expect(section(paused, 'Stop')).toContain('Paused: **aborted** at iteration 1');
    expect(section(paused, 'Stop')).toContain('the next `run()` resumes it');
    await h.loop(createScriptedStageRunner({ a: passed, b: passed, c: passed })).run();
    await h.loop(createScriptedStageRunner({ a: passed, b: passed, c: passed })).run();
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    expect(section(report, 'Iteration 1')).toContain('Resumed an unfinished session.');
    // The interrupted run of b stays in the history, followed by its run after the resume.
    expect(section(report, 'Iteration 1')).toMatch(
      /\n\| a \| passed \|.*\n\| b \| interrupted \|.*\n\| b \| passed \|.*\n\| c \| passed \|.*\n\n/,
    );
    expect(report).toContain('in 2 session(s)');
    expect(
      mermaidOf(report)
        .split('\n')
        .filter((line) => line.includes('-->')),
    ).toEqual(['  I1 --> S1', '  S1 -->|"resumed"| I1', '  I1 --> S3', '  S3 -->|"new session"| I2', '  I2 --> S5']);
  });
});

describe('renderRunReport over a partial or damaged run', () => {
  it('says so for a run directory where no loop has run, naming the files', async () => {
    const h = harness();
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    expect(report).toContain('No iteration recorded.');
    expect(report).toContain('Goal unknown');
    expect(section(report, 'Unreadable files')).toContain(`- \`${PATHS.events}\`: missing`);
    expect(section(report, 'Unreadable files')).toContain(`- \`${PATHS.state}\`: missing`);
    expect(mermaidOf(report)).toContain('empty(["no iteration recorded"])');
  });

  it('reports torn and foreign event lines, a corrupt state, bad evaluation files and spend, and still renders', async () => {
    const h = await twoIterationRun();
    const events = (await h.fs.readText(PATHS.events)) ?? '';
    await h.fs.writeText(PATHS.events, `${events}not json\n{"type":"loop_completed","iter`);
    await h.fs.writeText(PATHS.state, '{"schema_version": 2}');
    await h.fs.writeText(`${RUN}/iterations/1/evaluation.json`, '{ "status": "RETRY", ');
    await h.fs.writeText(`${RUN}/iterations/2/evaluation.json`, '{ "status": "PASS" }');
    await h.fs.writeText(PATHS.metrics, '{ "cumulative_cost_usd": "lots" }');
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    const problems = section(report, 'Unreadable files');
    const lines = events.split('\n').length;
    expect(problems).toContain(
      `- \`${PATHS.events}\`: skipped 2 line(s) that are not events: line ${lines}, line ${lines + 1} (torn: no line end, a crash mid-append)`,
    );
    expect(problems).toContain(`- \`${PATHS.state}\`: not a loop state: $.schema_version:`);
    expect(problems).toContain(`- \`${RUN}/iterations/1/evaluation.json\`: Not valid JSON`);
    expect(problems).toContain(`- \`${RUN}/iterations/2/evaluation.json\`: not an evaluation: $.score:`);
    expect(problems).toContain(`- \`${PATHS.metrics}\`: cumulative_cost_usd is not a number`);
    // What the events still say is shown; the spend falls back to the stages' recorded costs.
    expect(section(report, 'Iteration 1')).toContain(
      `Evaluation: none readable at \`${RUN}/iterations/1/evaluation.json\`. Its event says RETRY, score 50.`,
    );
    expect(report).toContain('spent $0.06 (stage costs in events.jsonl)');
    expect(section(report, 'Stop')).toContain('Stopped on **complete** at iteration 2');
  });

  it('reads events.jsonl whose last line a crash cut inside a character, reporting that line as torn', async () => {
    const h = await twoIterationRun();
    const events = (await h.fs.readText(PATHS.events)) ?? '';
    await h.fs.appendText(PATHS.events, '{"type":"loop_stopped","reason":"é');
    await h.fs.truncate(
      PATHS.events,
      Buffer.byteLength(events) + Buffer.byteLength('{"type":"loop_stopped","reason":"') + 1,
    );
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    const lines = events.split('\n').length;
    expect(section(report, 'Unreadable files')).toContain(
      `- \`${PATHS.events}\`: skipped 1 line(s) that are not events: line ${lines} (torn: no line end, a crash mid-append)`,
    );
    expect(section(report, 'Stop')).toContain('Stopped on **complete** at iteration 2');
  });

  it('names an evaluation the events promise but the disk lost, and a file it cannot read', async () => {
    const h = await twoIterationRun();
    await h.fs.remove(`${RUN}/iterations/2/evaluation.json`);
    await h.fs.remove(PATHS.metrics);
    await h.fs.remove(PATHS.state);
    await h.fs.mkdir(PATHS.state);
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    const problems = section(report, 'Unreadable files');
    expect(problems).toContain(`- \`${RUN}/iterations/2/evaluation.json\`: missing`);
    expect(problems).toMatch(new RegExp(`- \`${PATHS.state}\`: unreadable: .+`));
    expect(section(report, 'Iteration 2')).toContain('Its event says PASS, score 100.');
    // Without loop-state.json the stop comes from the last stop event.
    expect(section(report, 'Stop')).toContain('Stopped on **complete** at iteration 2');
  });

  it('keeps the iterations on disk when the event log is gone', async () => {
    const h = await twoIterationRun();
    await h.fs.remove(PATHS.events);
    const report = await renderRunReport({ fs: h.fs, runDir: RUN });
    expect(section(report, 'Unreadable files')).toContain(`- \`${PATHS.events}\`: missing`);
    expect(section(report, 'Iteration 1')).toContain('No stage run recorded.');
    expect(section(report, 'Iteration 2')).toContain('Evaluation: **PASS**, score 100');
    expect(
      mermaidOf(report)
        .split('\n')
        .filter((line) => line.includes('-->')),
    ).toEqual(['  I1 --> I2', '  I2 --> S2']);
  });
});
