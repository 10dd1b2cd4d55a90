// Replaces each compiled core/dist/vendor/<name>.js (a re-export of package <name>) with the
// package bundled into that one file; core/vendor/README.md says why. Bundled from the source
// (core/vendor/<name>.ts), so that a second run, after a build that left the file alone, is the
// same bundle again rather than a bundle of the bundle.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const source = 'core/vendor';
const dir = 'core/dist/vendor';
// A CommonJS package bundled as ESM still calls require() for Node's own modules.
const banner = "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);";
// stdout is the MCP stream of a --stdio gateway. Kysely prints its deprecation notices with
// console.log (a plugin's `orderBy('name desc')` would put one line of text in the stream), and
// yaml its debug output: in the bundles, they go to stderr.
const toStderr = { 'console.log': 'console.error', 'console.info': 'console.error', 'console.debug': 'console.error' };
for (const name of readdirSync(source).filter((f) => f.endsWith('.ts'))) {
  const file = join(dir, name.replace(/\.ts$/, '.js'));
  await build({ entryPoints: [join(source, name)], outfile: file, allowOverwrite: true, bundle: true, format: 'esm', platform: 'node', target: 'node20', banner: { js: banner }, define: toStderr, logLevel: 'warning' });
  // tsc's map described the one-line re-export, not the bundle.
  rmSync(`${file}.map`, { force: true });
}
