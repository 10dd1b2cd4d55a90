// Replaces the compiled dist/core/storage/kysely.js (`export * from 'kysely'`) with Kysely
// bundled into that one file: loading ~300 small modules took ~180 ms of every start-up, the
// single file ~30 ms. See core/storage/kysely.ts.
import { build } from 'esbuild';

const file = 'dist/core/storage/kysely.js';
await build({ entryPoints: [file], outfile: file, allowOverwrite: true, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
