// The parallel search's worker entry (parallel.ts): workers do not inherit the parent's module
// hooks on Node 20, so this plain-JS entry registers tsx's loader, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./parallel-worker.ts', import.meta.url).href);
