// Type-checks every workspace project in turn; exits non-zero on the first failure.
import { execFileSync } from 'node:child_process';
const projects = [
  'packages/contracts',
  'packages/formula',
  'packages/demo-fleet',
  'packages/edge',
  'apps/api',
  'apps/web',
  'e2e',
  'bench',
  'scripts',
];
let failed = false;
for (const project of projects) {
  const started = Date.now();
  try {
    execFileSync('npx', ['tsc', '-p', project, '--pretty'], { stdio: 'inherit' });
    console.log(`typecheck ${project}: ok (${Date.now() - started} ms)`);
  } catch {
    console.error(`typecheck ${project}: FAILED`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
