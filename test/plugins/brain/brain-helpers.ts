import { after } from 'node:test';
import { startTestGateway, type TestGateway, type TestPluginSettings, type TestStore } from '../../../core/testing.js';

/** A gateway with brain (@mcp-gateway/core/testing's TestGateway); `call` and `fail` go through its first session. */
export interface BrainGateway extends TestGateway {
  /** The same TestGateway, for the tests that name it (`b.gateway.close()`). */
  readonly gateway: TestGateway;
}

/**
 * A gateway with the brain plugin (or the plugins of `overrides.plugins` instead) on `store`, or
 * a SQLite store of its own; `overrides.dataDir`: a SQLite store in that folder (which outlives
 * the gateway, as a restart or a command run on it needs). It closes after the suite or test
 * that called this.
 */
export async function brainGateway(overrides: Record<string, unknown> = {}, store?: TestStore, clientName = 'test-client'): Promise<BrainGateway> {
  const { plugins, dataDir, ...config } = overrides as { plugins?: Record<string, TestPluginSettings>; dataDir?: string };
  const where: TestStore | undefined = store ?? (dataDir === undefined ? undefined : { storage: { shared: 'sqlite' }, dataDir });
  const gateway = await startTestGateway({
    registries: [],
    builtinRegistry: true,
    plugins: plugins ?? { brain: {} },
    config,
    clientName,
    ...(where === undefined ? {} : { store: where }),
  });
  after(() => gateway.close());
  return { ...gateway, gateway };
}

/** The config of a gateway the test runs as a process (mcp-gateway serve, or a command), its data in `dataDir`. */
export function processConfig(dir: string, dataDir: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dataDir,
    auth: 'none',
    workspace: dir,
    logLevel: 'silent',
    registries: [],
    plugins: {},
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
    ...more,
  };
}
