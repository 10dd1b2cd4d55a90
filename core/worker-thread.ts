import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread module `name` (without extension) beside `base` (a module's
 * `import.meta.url`). Compiled, the `.js` sits there in dist/. Run from the TypeScript sources
 * (tests, tsx), only the `.ts` exists, and Node 20 applies no --import loader inside workers:
 * a small bootstrap registers tsx there first.
 */
export function startWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  const compiled = new URL(`./${name}.js`, base);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const entry = new URL(`./${name}.ts`, base).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
