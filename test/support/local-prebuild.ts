import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from './repository.js';

const require = createRequire(join(ROOT, 'package.json'));

/**
 * The environment that lets a fresh `npm install` of better-sqlite3 (a dependency of
 * @mcp-gateway/core) take the binary this repository's install built, as prebuild-install's
 * "local prebuilds" (https://github.com/prebuild/prebuild-install#local-prebuilds), instead of
 * downloading one from GitHub, which this machine cannot reach, or compiling for two minutes.
 * Empty when no binary for the running Node is found: the install then compiles.
 */
export function localPrebuildEnv(dir: string): Record<string, string> {
  const addon = dirname(require.resolve('better-sqlite3/package.json'));
  const version = (require('better-sqlite3/package.json') as { version: string }).version;
  const platform = `${process.platform}-${process.arch}`;
  const abi = process.versions.modules;
  // Where the `bindings` loader looks: the ABI's own folder (scripts/test-node24.sh), else the build's.
  const binary = [join(addon, 'lib', 'binding', `node-v${abi}-${platform}`, 'better_sqlite3.node'), join(addon, 'build', 'Release', 'better_sqlite3.node')].find(existsSync);
  if (!binary) return {};
  const staging = join(dir, 'staging');
  mkdirSync(join(staging, 'build', 'Release'), { recursive: true });
  execFileSync('cp', [binary, join(staging, 'build', 'Release')]);
  const archive = join(dir, `better-sqlite3-v${version}-node-v${abi}-${platform}.tar.gz`);
  execFileSync('tar', ['czf', archive, '-C', staging, 'build']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}
