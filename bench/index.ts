// npm run bench: every benchmark of the library, printed as times, ratios and scaling.
import { benchCritics } from './critics.bench.js';
import { benchDurable } from './durable.bench.js';
import { benchEvaluationFloor } from './evaluation-floor.bench.js';
import { benchFixLoop } from './fix-loop.bench.js';
import { benchGoalLoop } from './goal-loop.bench.js';
import { benchHeap } from './heap.bench.js';
import { benchPersist } from './persist.bench.js';
import { benchPostgres } from './postgres.bench.js';
import { benchReview } from './review.bench.js';

console.log(`goal-loop benchmarks — Node ${process.version}, ${process.platform}/${process.arch}`);
// Each suite runs even when an earlier one fails; a failure still fails the run.
for (const suite of [
  benchGoalLoop,
  benchDurable,
  benchEvaluationFloor,
  benchPersist,
  benchPostgres,
  benchReview,
  benchCritics,
  benchFixLoop,
  benchHeap,
]) {
  try {
    await suite();
  } catch (error) {
    console.error(`\n${suite.name} failed:`, error);
    process.exitCode = 1;
  }
}
