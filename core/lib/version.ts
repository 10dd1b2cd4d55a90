import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What core reads of its own package.json. */
export interface GatewayPackage {
  readonly version: string;
  /** The folder holding package.json: the gateway's root, in the source tree and installed. */
  readonly root: string;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** The gateway's package.json: two levels up in dist/, one in the source tree. */
function findPackageJson(): GatewayPackage {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version: string; devDependencies?: Record<string, string> };
      if (pkg.name === 'mcp-gateway') return { version: pkg.version, root: dir, devDependencies: pkg.devDependencies ?? {} };
    }
    const parent = dirname(dir);
    if (parent === dir) return { version: '0.0.0', root: dirname(fileURLToPath(import.meta.url)), devDependencies: {} };
    dir = parent;
  }
}

export const GATEWAY_PACKAGE = findPackageJson();
export const GATEWAY_VERSION = GATEWAY_PACKAGE.version;
