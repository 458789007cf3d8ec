// The mutants of the pure cores: the files, the simple mutations each admits, a seeded sample of them, and the
// equivalent ones skipped with a reason.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { createRandom } from '../random.js';

export interface Mutant {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  readonly from: string;
  readonly to: string;
}

export interface Skip {
  readonly file: string;
  /** The mutated line's text (trimmed) and the mutation's column: an entry outlives edits elsewhere in the file. */
  readonly code: string;
  readonly column: number;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

// Equivalent mutants: no input the library writes can tell them from the original.
const SKIPS: readonly Skip[] = [
  {
    file: 'src/goal/core/run-report-build.ts',
    code: "while (open >= 0 && !(stages[open]?.stage === event.stage && stages[open]?.status === 'interrupted')) open -= 1;",
    column: 65,
    from: '&&',
    to: '||',
    reason:
      "the loop logs a stage's stage_completed right after its own stage_started: the last entry matches both ways",
  },
];

// Every .ts file under `dir` (repository-relative, sorted so the pool is the same on every machine).
export function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name).split('\\').join('/'))
    .sort();
}

// A file that compiles to no JavaScript holds only types: no mutation of it can run.
function onlyTypes(text: string): boolean {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, removeComments: true } });
  return js.outputText.replace(/export\s*\{\s*\};?/g, '').trim() === '';
}

export function coreFiles(): string[] {
  const capabilities = readdirSync('src', { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const files = capabilities.flatMap((entry) => [
    ...tsFiles(`src/${entry.name}/core`),
    ...tsFiles(`src/${entry.name}/analyses`),
  ]);
  return files.filter((file) => !onlyTypes(readFileSync(file, 'utf8')));
}

const SWAPS: Readonly<Partial<Record<ts.SyntaxKind, string>>> = {
  [ts.SyntaxKind.LessThanToken]: '<=',
  [ts.SyntaxKind.LessThanEqualsToken]: '<',
  [ts.SyntaxKind.GreaterThanToken]: '>=',
  [ts.SyntaxKind.GreaterThanEqualsToken]: '>',
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: '!==',
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: '===',
  [ts.SyntaxKind.EqualsEqualsToken]: '!=',
  [ts.SyntaxKind.ExclamationEqualsToken]: '==',
  [ts.SyntaxKind.AmpersandAmpersandToken]: '||',
  [ts.SyntaxKind.BarBarToken]: '&&',
};

// The literal a returned literal becomes.
function otherLiteral(node: ts.Expression, text: string): string | undefined {
  if (ts.isNumericLiteral(node)) return text === '0' ? '1' : '0';
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text === '' ? "'mutant'" : "''";
  if (node.kind === ts.SyntaxKind.NullKeyword) return 'undefined';
  return undefined;
}

// The mutants of one file, walking its runtime code only (type annotations, interfaces and aliases are skipped).
export function mutantsOf(file: string): Mutant[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Mutant[] = [];
  const add = (node: ts.Node, to: string): void => {
    const start = node.getStart(source);
    const { line, character } = source.getLineAndCharacterOfPosition(start);
    found.push({
      file,
      start,
      end: node.getEnd(),
      line: line + 1,
      column: character + 1,
      from: node.getText(source),
      to,
    });
  };
  const returned = (expression: ts.Expression | undefined): void => {
    if (expression === undefined) return;
    const to = otherLiteral(expression, expression.getText(source));
    if (to !== undefined) add(expression, to);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      const swap = SWAPS[kind];
      if (swap !== undefined) add(node.operatorToken, swap);
      const one = ts.isNumericLiteral(node.right) && node.right.text === '1';
      if (one && kind === ts.SyntaxKind.PlusToken) add(node.operatorToken, '-');
      if (one && kind === ts.SyntaxKind.MinusToken) add(node.operatorToken, '+');
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword) add(node, 'false');
    if (node.kind === ts.SyntaxKind.FalseKeyword) add(node, 'true');
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken)
      add(node, node.operand.getText(source));
    if (ts.isReturnStatement(node)) returned(node.expression);
    if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) returned(node.body);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function sample(pool: readonly Mutant[], size: number, seedText: string): Mutant[] {
  // The seed text hashed to the PRNG's 32-bit seed: any text seeds a sample.
  const { next } = createRandom(createHash('sha256').update(seedText).digest().readUInt32LE(0));
  const shuffled = [...pool];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other] as Mutant, shuffled[index] as Mutant];
  }
  return shuffled.slice(0, size).sort((a, b) => (a.file === b.file ? a.start - b.start : a.file < b.file ? -1 : 1));
}

export function skipOf(mutant: Mutant): Skip | undefined {
  const text = readFileSync(mutant.file, 'utf8');
  const lineText = text.split('\n')[mutant.line - 1]?.trim() ?? '';
  return SKIPS.find(
    (skip) =>
      skip.file === mutant.file &&
      skip.column === mutant.column &&
      skip.from === mutant.from &&
      skip.to === mutant.to &&
      skip.code === lineText,
  );
}

export const describe = (mutant: Mutant): string =>
  `${mutant.file}:${mutant.line}:${mutant.column}  \`${mutant.from.replace(/\s+/g, ' ')}\` → \`${mutant.to.replace(/\s+/g, ' ')}\``;
