// npm run bench: every benchmark of the library, printed as times, ratios and scaling.
import { benchGoalLoop } from './goal-loop.bench.js';

console.log(`goal-loop benchmarks — Node ${process.version}, ${process.platform}/${process.arch}`);
await benchGoalLoop();
