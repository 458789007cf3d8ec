// The surface a user reads (SPEC §2): the names each entry point exports, types included, against its cap.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CAPS = { index: 40, review: 25, critics: 25, 'fix-loop': 25, node: 25, testing: 25, postgres: 25 } as const;
const OUTSIDE_CONTRACTS = 220;

// The names an entry module exports, read from its syntax: the entries are lists of named re-exports and
// declarations, and a star re-export (whose names only the checker could count) is refused.
function exportedNames(entry: string): string[] {
  const path = new URL(`../src/${entry}.ts`, import.meta.url);
  const file = ts.createSourceFile(path.pathname, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022);
  return file.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined || !ts.isNamedExports(clause)) throw new Error(`src/${entry}.ts: export * is uncounted`);
      return clause.elements.map((element) => element.name.text);
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) return [];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.map((declaration) => declaration.name.getText(file));
    const name = (statement as ts.DeclarationStatement).name;
    return name === undefined ? [] : [name.getText(file)];
  });
}

describe('the public surface', () => {
  const names = Object.fromEntries([...Object.keys(CAPS), 'contracts'].map((entry) => [entry, exportedNames(entry)]));

  it.each(Object.entries(CAPS))('src/%s.ts exports at most %i names', (entry, cap) => {
    expect(names[entry]?.length ?? 0, names[entry]?.join(', ')).toBeLessThanOrEqual(cap);
  });

  it(`exports at most ${OUTSIDE_CONTRACTS} names in all outside goal-loop/contracts`, () => {
    const total = Object.keys(CAPS).reduce((sum, entry) => sum + (names[entry]?.length ?? 0), 0);
    expect(total).toBeLessThanOrEqual(OUTSIDE_CONTRACTS);
  });

  it('exports the zod schemas from goal-loop/contracts only', () => {
    for (const entry of Object.keys(CAPS)) expect(names[entry]?.filter((name) => /Schemas?$/.test(name))).toEqual([]);
    expect(names.contracts).toEqual(expect.arrayContaining(['goalSchema', 'feedbackReportSchema', 'loopEventSchema']));
  });

  it('counts what the entries export', () => {
    expect(names.index).toContain('GoalLoop');
    expect(names.postgres).toEqual(['PostgresFileSystemOptions', 'PostgresClient', 'createPostgresFileSystem']);
    expect(names.contracts).toContain('FIX_LOOP_STATE_VERSION');
  });
});
