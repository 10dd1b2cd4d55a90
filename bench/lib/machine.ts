import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './children.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  packages: Record<string, string>;
  commit: string;
}

function versionOf(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    // --no-optional-locks: never refresh (write) the index of a checkout others are working in.
    const dirty = execFileSync('git', ['--no-optional-locks', 'status', '--porcelain', '--', 'core', 'plugins'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .map((line) => line.slice(3).trim())
      .filter(Boolean);
    if (dirty.length === 0) return head;
    const shown = dirty.slice(0, 6).join(', ') + (dirty.length > 6 ? `, and ${dirty.length - 6} more` : '');
    return `${head} plus uncommitted changes to ${shown}`;
  } catch {
    return '?';
  }
}

export function describeMachine(): Machine {
  let cpu = cpus()[0]?.model ?? '?';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // not Linux
  }
  return {
    cpu,
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    kernel: `${process.platform} ${release()}`,
    node: process.version,
    packages: Object.fromEntries(
      ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/server-filesystem', 'fastify', 'autocannon', 'ajv', 'better-sqlite3', 'pino', 'prom-client', 'supergateway', 'mcp-proxy', 'mcp-hub', 'playwright-core', '@playwright/mcp'].map(
        (p) => [p, versionOf(p)],
      ),
    ),
    commit: commit(),
  };
}
