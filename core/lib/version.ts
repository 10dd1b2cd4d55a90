import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The name core's package.json carries, installed and in the source tree. */
export const CORE_PACKAGE_NAME = '@mcp-gateway/core';

/** What core reads of its own package.json. */
export interface GatewayPackage {
  readonly version: string;
  /** The folder holding core's package.json (`core/` in the source tree), with its registry. */
  readonly root: string;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** Core's package.json: two levels up in core/dist/, one in the sources. */
function findPackageJson(): GatewayPackage {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version: string; devDependencies?: Record<string, string> };
      if (pkg.name === CORE_PACKAGE_NAME) return { version: pkg.version, root: dir, devDependencies: pkg.devDependencies ?? {} };
    }
    const parent = dirname(dir);
    if (parent === dir) return { version: '0.0.0', root: dirname(fileURLToPath(import.meta.url)), devDependencies: {} };
    dir = parent;
  }
}

export const GATEWAY_PACKAGE = findPackageJson();
export const GATEWAY_VERSION = GATEWAY_PACKAGE.version;
