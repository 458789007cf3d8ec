import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareReport, readReportFile } from '../../src/fix-loop/report-file.js';
import { createNodeFileSystem } from '../../src/node/file-system.js';
import type { FileSystem } from '../../src/ports/file-system.js';

// Real files and symlinks: the test report path is where a test command (anything the goal names) writes.

const JUNIT_PASS = '<testsuite name="s"><testcase name="ok"/></testsuite>';
const PRECIOUS = 'export const precious = 42;\n';

let top: string;
let root: string;
let fs: FileSystem;

beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'fix-loop-report-'));
  root = join(top, 'root');
  await mkdir(join(root, 'ws/src'), { recursive: true });
  await mkdir(join(top, 'out'));
  await writeFile(join(root, 'ws/src/precious.js'), PRECIOUS);
  await writeFile(join(top, 'out/junit.xml'), JUNIT_PASS);
  fs = createNodeFileSystem(root);
});

afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

const report = (path: string) => ({ format: 'junit' as const, path });
const isLink = (path: string) => lstat(path).then((stat) => stat.isSymbolicLink());

describe('prepareReport', () => {
  it('refuses a report path that is a symlink to a workspace file, and leaves the file and the link alone', async () => {
    await symlink('src/precious.js', join(root, 'ws/report.xml'));
    const place = await prepareReport(fs, 'ws', report('report.xml'));
    expect(place.ok).toBe(false);
    expect(place.ok ? '' : place.detail).toContain('"ws/report.xml" is a symlink');
    expect(await readFile(join(root, 'ws/src/precious.js'), 'utf8')).toBe(PRECIOUS);
    expect(await isLink(join(root, 'ws/report.xml'))).toBe(true);
  });

  it('refuses a report under a symlinked folder inside the workspace, removing nothing behind it', async () => {
    await writeFile(join(root, 'ws/src/r.xml'), PRECIOUS);
    await symlink('src', join(root, 'ws/reports'));
    const place = await prepareReport(fs, 'ws', report('reports/r.xml'));
    expect(place.ok ? '' : place.detail).toContain('"ws/reports" is a symlink');
    expect(await readFile(join(root, 'ws/src/r.xml'), 'utf8')).toBe(PRECIOUS);
  });

  it('refuses a dangling symlink at the report path', async () => {
    await symlink(join(top, 'out/new.xml'), join(root, 'ws/report.xml'));
    const place = await prepareReport(fs, 'ws', report('report.xml'));
    expect(place.ok ? '' : place.detail).toContain('leading to nothing');
  });

  it('removes an earlier plain report and creates the folder of a new one', async () => {
    await writeFile(join(root, 'ws/report.xml'), JUNIT_PASS);
    expect(await prepareReport(fs, 'ws', report('report.xml'))).toEqual({ ok: true, path: 'ws/report.xml' });
    expect(await fs.stat('ws/report.xml')).toBeNull();
    expect(await prepareReport(fs, 'ws', report('out/deep/r.xml'))).toEqual({ ok: true, path: 'ws/out/deep/r.xml' });
    expect((await fs.stat('ws/out/deep'))?.type).toBe('directory');
  });
});

describe('readReportFile', () => {
  it('does not read a report the test command replaced by a symlink out of the root', async () => {
    await symlink(join(top, 'out/junit.xml'), join(root, 'ws/report.xml'));
    const reading = await readReportFile(fs, 'ws/report.xml', 'junit');
    expect(reading.state).toBe('unusable');
    expect(reading.state === 'read' ? '' : reading.detail).toContain(`${root}/ws/report.xml is not read`);
  });

  it('does not read a report under a folder the test command replaced by a symlink out of the root', async () => {
    await writeFile(join(top, 'out/r.xml'), JUNIT_PASS);
    await symlink(join(top, 'out'), join(root, 'ws/rep'));
    const reading = await readReportFile(fs, 'ws/rep/r.xml', 'junit');
    expect(reading.state === 'read' ? '' : reading.detail).toContain('"ws/rep" is a symlink');
  });

  it('reads a plain report, and says when none was written', async () => {
    await writeFile(join(root, 'ws/report.xml'), JUNIT_PASS);
    const reading = await readReportFile(fs, 'ws/report.xml', 'junit');
    expect(reading.state === 'read' ? reading.report.passed : -1).toBe(1);
    expect((await readReportFile(fs, 'ws/none.xml', 'junit')).state).toBe('absent');
  });
});
