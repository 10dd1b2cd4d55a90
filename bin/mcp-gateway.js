#!/usr/bin/env node
// The command package's `mcp-gateway`: core's command (core/bin.ts), which a source checkout
// compiles into core/dist at `npm install` (the prepare script). Run from this package, it
// also finds the config this package ships (gateway.config.yaml) for its first-run hint.
import { existsSync } from 'node:fs';

const bin = import.meta.resolve('@mcp-gateway/core/bin');
if (!existsSync(new URL(bin))) {
  process.stderr.write('mcp-gateway: core/dist is missing; run `npm run build` (or `npm install`) in the gateway folder first.\n');
  process.exit(1);
}
await import(bin);
