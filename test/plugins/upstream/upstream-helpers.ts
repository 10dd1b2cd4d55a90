import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { ROOT, TESTS } from '../../helpers.js';

export const FIXTURE_SERVER = join(TESTS, 'fixtures', 'upstream-server', 'server.js');
export const EVERYTHING_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const FILESYSTEM_SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** The fixture server as a stdio upstream; its events go to `logFile`. */
export function fixtureServer(name: string, logFile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_LOG: logFile }, ...extra };
}

/** The events the fixture servers appended to `logFile`. */
export function fixtureEvents(logFile: string): Array<{ pid: number; event: string; uri?: string }> {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The upstream plugin's status entry for server `name`. */
export function serverStatus(gateway: Gateway, name: string): Record<string, any> {
  const plugin = gateway.status().plugins.find((p) => p.name === 'upstream');
  const servers = (plugin?.status?.detail?.servers ?? []) as Array<Record<string, any>>;
  const found = servers.find((s) => s.name === name);
  if (!found) throw new Error(`no upstream status for ${name}: ${JSON.stringify(plugin)}`);
  return found;
}

export async function pidOf(client: Client, tool: string): Promise<number> {
  const result = await client.callTool({ name: tool, arguments: {} });
  return (result.structuredContent as { pid: number }).pid;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
