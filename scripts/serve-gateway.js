// Starts the built gateway's HTTP face on a free loopback port for the CI scripts
// (conformance, OpenAPI lint), and waits until it answers.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `configText` is appended to a config with its own dataDir; resolves once `/health` answers,
 * with the port, the gateway's folder and a `stop()` that ends it.
 */
export async function serveGateway(name, configText = '') {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `mcpgw-${name}-`));
  const config = join(dir, 'gateway.config.yaml');
  writeFileSync(config, `dataDir: ${join(dir, 'data')}\nlogLevel: warn\n${configText}`);
  const gateway = spawn(process.execPath, ['bin/mcp-gateway.js', 'serve', '--config', config, '--http', `127.0.0.1:${port}`, '--no-tcp', '--no-unix'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => gateway.kill('SIGTERM');
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return { port, dir, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error('the gateway did not start');
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
