// npm's prepare hook: builds dist/ so a git URL install gets a working package. `npm pack` (attw --pack, a git
// dependency's own pack step) runs it again right after `npm ci` or `npm install` built; a built dist/ is kept then.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.npm_command === 'pack' && existsSync('dist/index.js') && existsSync('dist/index.cjs')) {
  console.log('prepare: dist/ is built; npm pack packs it as it is');
} else {
  execSync('npm run build', { stdio: 'inherit' });
}
