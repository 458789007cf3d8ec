// Which fast test files reach a mutated file: the import graph of src/ and test/, walked back from the file.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { tsFiles } from './mutants.js';

const ROOT = process.cwd();

// Who imports whom, among src/ and test/ (static and dynamic imports, the package's own name included).
export function importers(): Map<string, Set<string>> {
  const byTarget = new Map<string, Set<string>>();
  for (const file of [...tsFiles('src'), ...tsFiles('test')]) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveImport(file, fileName);
      if (target === undefined) continue;
      const set = byTarget.get(target) ?? new Set<string>();
      set.add(file);
      byTarget.set(target, set);
    }
  }
  return byTarget;
}

function resolveImport(from: string, specifier: string): string | undefined {
  const own = /^goal-loop(?:\/(.+))?$/.exec(specifier);
  if (own !== null) return `src/${own[1] ?? 'index'}.ts`;
  if (!specifier.startsWith('.')) return undefined;
  const path = relative(ROOT, resolve(dirname(from), specifier))
    .split('\\')
    .join('/');
  for (const candidate of [path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.ts`])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

// The fast test files that import `file`, directly or not: first those in its mirror folder, then the rest of its
// capability's tests (only run when the first ones all pass).
export function testsOf(file: string, graph: Map<string, Set<string>>): [string[], string[]] {
  const reached = new Set<string>([file]);
  const queue = [file];
  for (let next = queue.pop(); next !== undefined; next = queue.pop())
    for (const importer of graph.get(next) ?? [])
      if (!reached.has(importer)) {
        reached.add(importer);
        queue.push(importer);
      }
  const capability = file.split('/')[1];
  const mirror = `${dirname(file).replace(/^src\//, 'test/')}/`;
  const tests = [...reached]
    .filter((path) => path.startsWith(`test/${capability}/`) && path.endsWith('.test.ts'))
    .filter((path) => !path.endsWith('.integration.test.ts'))
    .sort();
  return [tests.filter((path) => path.startsWith(mirror)), tests.filter((path) => !path.startsWith(mirror))];
}
