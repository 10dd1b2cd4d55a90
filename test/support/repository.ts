import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository: its sources, docs, bin/ and node_modules/. Found as the nearest folder up
 * with a package.json, so that it is the same whether this file runs compiled from dist/test
 * (as the suite does) or from the source tree through tsx (as scripts/tool-budgets.js does).
 */
export const ROOT = repositoryRoot(import.meta.dirname);

function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}
