#!/usr/bin/env node
// The `mcp-gateway` command, as core's own bin: what a plugin package that depends on core
// runs with `npx mcp-gateway`, and what the command package (@mcp-gateway/cli) starts.
import { setFlagsFromString } from 'node:v8';

// V8 allocates an object straight in the old generation once most objects from its allocation
// site have outlived a young-generation collection. A gateway's requests allocate short-lived
// objects, but a collection that runs while a few requests are in flight (or while the gateway
// idles between bursts) can mark such a site for good; every later request then leaves garbage
// in the old generation, and V8's helper threads mark and sweep it without end. Measured under
// REST load (bench/analysis.md section 22): about one gateway process in seven fell into that
// state for its whole life, at two thirds of the throughput of the others; none did with
// pretenuring off. Set before anything else is loaded (hence the dynamic imports below), so
// that no site was decided yet.
setFlagsFromString('--no-allocation-site-pretenuring');

// A --stdio start answers a client's first requests from the last identical start's catalog
// while the gateway loads (mcp/stdio-early.ts): desktop clients start one per window.
if (process.argv.includes('--stdio')) {
  const { answerEarly } = await import('./mcp/stdio-early.js');
  await answerEarly();
}
const { run } = await import('./cli/cli.js');
run();
