import { writeFileSync } from 'node:fs';
import { GOLDEN_FILE, GOLDEN_SCENARIOS, traceDigest } from './golden';

// npm run golden: pins the trace of every shipped scenario (run it after an intended change, and
// say in the commit which traces changed and why).
const pinned = Object.fromEntries(GOLDEN_SCENARIOS.map((file) => [file, traceDigest(file)]));
writeFileSync(GOLDEN_FILE, JSON.stringify(pinned, null, 2) + '\n');
process.stdout.write(`${GOLDEN_FILE}: ${GOLDEN_SCENARIOS.length} traces pinned\n`);
