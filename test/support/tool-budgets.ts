import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listingBytes } from '../../core/catalog/catalog-cost.js';
import { resolveConfig } from '../../core/config/config.js';
import { createGateway } from '../../core/gateway/gateway.js';
import { createLogger } from '../../core/lib/logger.js';
import { ROOT } from './repository.js';

/**
 * The definition budgets: each tool's tools/list entry (JSON bytes, as clients get it) may not
 * grow past the figure written beside its plugin, so that a longer description or a new
 * argument is a choice someone makes in review, not a drift. Shared by
 * test/core/tool-budgets.test.ts, which holds the tools to them, and scripts/tool-budgets.js,
 * which writes them.
 */

/** Budgets are sizes rounded up to this, so that a few bytes of rewording do not mean a new budget. */
export const BUDGET_STEP = 50;

export const UPDATE_COMMAND = 'node scripts/tool-budgets.js --write';

/**
 * Every shipped plugin with tools of its own (upstream only relays other servers'), each in a
 * config it loads with on any machine: ide-bridge pointed at a backend that is not there (it
 * keeps retrying), embeddings without a provider, webview without starting a browser.
 */
const PLUGINS: Record<string, Record<string, unknown>> = {
  files: {},
  process: {},
  knowledge: {},
  brain: {},
  collab: {},
  webview: {},
  embeddings: {},
  'ide-bridge': { config: { url: 'ws://127.0.0.1:9/' } },
};

/** The gateway's own tools (plugin `gateway`) have their budgets in core. */
export function budgetFile(plugin: string): string {
  return plugin === 'gateway' ? join(ROOT, 'core', 'catalog', 'tool-budgets.json') : join(ROOT, 'plugins', plugin, 'tool-budgets.json');
}

export function budgetFor(bytes: number): number {
  return Math.ceil(bytes / BUDGET_STEP) * BUDGET_STEP;
}

/** Each tool's listing size, by plugin, from a gateway booted from source with every shipped plugin. */
export async function measureTools(): Promise<Map<string, Map<string, number>>> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgw-budgets-'));
  try {
    const config = resolveConfig(
      {
        dataDir: join(dir, 'data'),
        auth: 'none',
        workspace: dir,
        logLevel: 'silent',
        plugins: PLUGINS,
        transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
      },
      { env: process.env, cwd: dir },
    );
    const gateway = await createGateway({ config, log: createLogger('silent') });
    try {
      const sizes = new Map<string, Map<string, number>>();
      for (const tool of gateway.catalog.list()) {
        const mine = sizes.get(tool.plugin) ?? new Map<string, number>();
        mine.set(tool.listing.name, listingBytes(tool));
        sizes.set(tool.plugin, mine);
      }
      return sizes;
    } finally {
      await gateway.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** A plugin's budgets as written; none when it has no file yet. */
export function readBudgets(plugin: string): Record<string, number> {
  const file = budgetFile(plugin);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>) : {};
}

/** Writes budgets sorted by tool name, one a line, so that a change shows as a one-line diff. */
export function writeBudgets(plugin: string, budgets: Record<string, number>): void {
  const sorted = Object.fromEntries(Object.entries(budgets).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(budgetFile(plugin), `${JSON.stringify(sorted, null, 2)}\n`);
}
