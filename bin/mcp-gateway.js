#!/usr/bin/env node
// Runs the compiled gateway (built by `npm install` through the prepare script), so that MCP
// clients that spawn it start plain JavaScript rather than a TypeScript loader.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// V8 allocates an object straight in the old generation once most objects from its allocation
// site have outlived a young-generation collection. A gateway's requests allocate short-lived
// objects, but a collection that runs while a few requests are in flight (or while the gateway
// idles between bursts) can mark such a site for good; every later request then leaves garbage
// in the old generation, and V8's helper threads mark and sweep it without end. Measured under
// REST load (bench/analysis.md section 22): about one gateway process in seven fell into that
// state for its whole life, at two thirds of the throughput of the others; none did with
// pretenuring off. Set before anything is loaded, so that no site was decided yet.
setFlagsFromString('--no-allocation-site-pretenuring');

const cli = new URL('../dist/core/cli/cli.js', import.meta.url);
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
