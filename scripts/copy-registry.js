// The built gateway finds its registry beside its code (dist/registry), so that module
// paths such as `../plugins/files/index.js` resolve to compiled files in dist/ and to the
// TypeScript sources (through tsx) when run from the source tree.
import { cpSync, existsSync, rmSync } from 'node:fs';

rmSync('dist/registry', { recursive: true, force: true });
if (existsSync('registry')) cpSync('registry', 'dist/registry', { recursive: true });
