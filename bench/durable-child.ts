// Run under `strace -f -c` by durable.bench.ts: `durable-child.ts <dir> <n>` steps fresh one-stage runs on the Node
// filesystem in <dir>: two to warm up, then <n> more; n = 0 is the setup the counts subtract.
import { createNodeFileSystem } from '../src/node/file-system.js';
import { iterate } from './durable-fixture.js';

const [dir, count] = process.argv.slice(2);
if (dir === undefined || count === undefined) throw new Error('usage: durable-child.ts <dir> <n>');
const fs = createNodeFileSystem(dir);
for (let i = 0; i < 2 + Number(count); i++) await iterate(fs);
