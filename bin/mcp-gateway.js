#!/usr/bin/env node
// Runs the compiled gateway (built by `npm install` through the prepare script), so that MCP
// clients that spawn it start plain JavaScript rather than a TypeScript loader.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/core/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('mcp-gateway: dist/ is missing; run `npm run build` (or `npm install`) in the gateway folder first.\n');
  process.exit(1);
}
// A --stdio start answers a client's first requests from the last identical start's catalog
// while the gateway loads (dist/core/mcp/stdio-early.js): desktop clients start one per window.
if (process.argv.includes('--stdio')) {
  const { answerEarly } = await import(new URL('../dist/core/mcp/stdio-early.js', import.meta.url).href);
  await answerEarly();
}
const { run } = await import(cli.href);
run();
