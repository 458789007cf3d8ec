// Reading code_report.json: a file already normal is kept as read (no copy per file of a large report); one that is
// not becomes a normal copy, and the document read is left as it was.
import { describe, expect, it } from 'vitest';
import { type CodeReportContract, readCodeReport } from '../../../src/review/contracts/code-report.js';

// The normalized report, or a failure naming the issues.
function read(document: unknown): CodeReportContract {
  const result = readCodeReport(document);
  if (!result.ok) throw new Error(`expected a valid code report: ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe('readCodeReport', () => {
  it('keeps files that are already normal as read, extra fields and all, in the very list read', () => {
    const file = {
      path: 'src/auth/login.ts',
      implements: ['US-001', 'FR-001'],
      service: 'auth',
      endpoints: ['POST /login'],
      tables: ['sessions'],
      mitigates: ['THR-001'],
      language: 'typescript',
    };
    const bare = { path: 'src/x.ts', implements: [] };
    const files = [file, bare];
    const report = read({ files });
    expect(report.files).toBe(files);
    expect(report.files[0]).toBe(file);
  });

  it('copies a file whose service, endpoints or tables need normalizing, leaving the document as it was', () => {
    const files = [
      { path: 'a.ts', implements: ['FR-001'], service: ' auth ', endpoints: ['POST /login'] },
      { path: 'b.ts', implements: ['FR-001'], endpoints: ['POST /login', 'get /users/'] },
      { path: 'c.ts', implements: ['FR-001'], tables: ['users', ' orders '] },
    ];
    const before = structuredClone(files);
    const report = read({ files });
    expect(report.files.map((file) => [file.service, file.endpoints, file.tables])).toEqual([
      ['auth', ['POST /login'], undefined],
      [undefined, ['POST /login', 'GET /users'], undefined],
      [undefined, undefined, ['users', 'orders']],
    ]);
    for (const [index, file] of report.files.entries()) expect(file).not.toBe(files[index]);
    expect(files).toEqual(before);
  });
});
