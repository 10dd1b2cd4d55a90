import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The gateway's package.json: two levels up in dist/, one in the source tree. */
function findPackageJson(): { version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'mcp-gateway') return pkg;
    }
    const parent = dirname(dir);
    if (parent === dir) return { version: '0.0.0' };
    dir = parent;
  }
}

export const GATEWAY_VERSION = findPackageJson().version;
