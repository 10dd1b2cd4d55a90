// Shared by the process plugin tests: a gateway with the plugin, a client, real `node -e`
// children, and a safety net that kills every process a test started, even when it fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { startTestGateway, type TestGateway } from '../../../core/testing.js';
import { resultJson, tempDir, TESTS } from '../../helpers.js';

/** The echo fixture plugin's registry: the process tests' gateways have it beside process, as a real one has other plugins. */
export const ECHO_REGISTRY = join(TESTS, 'fixtures', 'external-plugin', 'registry');

export const NODE = process.execPath;

/** Arguments for `node -e <source>`. */
export const script = (source: string): string[] => ['-e', source];

/** A child that prints "ready" once its SIGTERM handler is in place, then never exits on its own. */
export const IGNORES_SIGTERM = "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);";

/** A child that starts a grandchild (same process group), prints its pid, and waits. */
export const WITH_GRANDCHILD = `
  const { spawn } = require('node:child_process');
  const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  console.log('grandchild ' + g.pid);
  setInterval(() => {}, 1000);`;

const started = new Set<number>();
let netInstalled = false;

/** Remembers a pid (and its group) to SIGKILL when the test file ends, if still alive. */
export function track(pid: number): number {
  started.add(pid);
  if (!netInstalled) {
    netInstalled = true;
    after(() => {
      for (const p of started) {
        if (isGone(p)) continue;
        for (const target of [-p, p]) {
          try {
            process.kill(target, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    });
  }
  return pid;
}

/** Whether `pid` no longer runs: no such process, or a zombie nobody reaped yet. */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZXx]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return true;
  }
}

export async function waitFor(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface ProcessGateway {
  gateway: TestGateway;
  client: Client;
  dir: string;
}

/**
 * A gateway with the process plugin (and the echo fixture), on @mcp-gateway/core/testing, plus
 * its connected client. `dir` is the workspace, its data in `dir/data`, so that a second
 * gateway on the same `dir` finds what the first left there (a restart). It closes when the
 * test file ends, if the test did not close it.
 */
export async function bootProcess(config: Record<string, unknown> = {}, dir = tempDir('mcpgw-process-')): Promise<ProcessGateway> {
  const gateway = await startTestGateway({
    registries: [ECHO_REGISTRY],
    builtinRegistry: true,
    plugins: { echo: {}, process: { config } },
    workspace: dir,
    store: { storage: { shared: 'sqlite' }, dataDir: join(dir, 'data') },
    clientName: 'process-test',
  });
  after(() => gateway.close());
  return { gateway, client: gateway.client, dir };
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: resultJson(result) };
}

/** Calls a tool that must succeed and returns its JSON. */
export async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const { isError, body } = await call(client, name, args);
  assert.equal(isError, false, `${name} failed: ${JSON.stringify(body)}`);
  return body;
}

/** Calls a tool that must fail and returns its {code, message, details}. */
export async function fail(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const { isError, body } = await call(client, name, args);
  assert.equal(isError, true, `${name} should have failed: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** process_start with node -e, its pid tracked for cleanup. */
export async function startNode(client: Client, source: string, extra: Record<string, unknown> = {}): Promise<any> {
  const view = await ok(client, 'process_start', { command: NODE, args: script(source), ...extra });
  track(view.pid);
  return view;
}

/** Polls process_output until `stream` matches `pattern`; returns that text. */
export async function waitForOutput(client: Client, id: string, pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout'): Promise<string> {
  let text = '';
  await waitFor(async () => {
    text = (await ok(client, 'process_output', { id, stream })).text;
    return pattern.test(text);
  }, `${id} to print ${pattern}`);
  return text;
}

/** The grandchild pid a WITH_GRANDCHILD child printed. */
export async function grandchildOf(client: Client, id: string): Promise<number> {
  const text = await waitForOutput(client, id, /grandchild \d+/);
  return track(Number(/grandchild (\d+)/.exec(text)![1]));
}
