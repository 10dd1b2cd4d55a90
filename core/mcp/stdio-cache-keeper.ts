import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway/gateway.js';
import { callerView, listingsFor } from '../catalog/caller-view.js';
import { GATEWAY_VERSION } from '../lib/version.js';
import type { CachedAnswers } from './cached-answers.js';
import { SERVER_INSTRUCTIONS, serverCapabilities } from './mcp-session.js';
import type { SessionInfo } from '../sessions/sessions.js';
import { writeSnapshot, type CacheSlot, type CatalogSnapshot } from './stdio-cache.js';

/** What this file uses of the gateway. */
export type CacheKeeperGateway = Pick<Gateway, 'catalog' | 'channels' | 'log' | 'profiles' | 'signal'>;

/** A burst of catalog changes (a federated server's tools arriving) is written once, this long after the last. */
const REWRITE_AFTER_MS = 1000;

type SnapshotContent = Omit<CatalogSnapshot, 'format' | 'key'>;

/**
 * After a start that answered from the snapshot: when the booted gateway lists other tools
 * than the client was given, the client is told (tools/list_changed) and lists again. An
 * `initialize` answer that is out of date cannot be taken back; it is logged, and the next
 * start answers from the new snapshot.
 */
export function reconcileEarlyAnswers(answers: CachedAnswers, gateway: CacheKeeperGateway, session: SessionInfo): void {
  const then = answers.snapshot;
  if (answers.answeredTools && JSON.stringify(stdioListings(gateway)) !== JSON.stringify(then.tools)) {
    gateway.log.info('the tools differ from the cached list the client was given at start; sending tools/list_changed');
    session.notify({ method: 'notifications/tools/list_changed' });
  }
  const { capabilities, instructions, serverInfo } = snapshotContent(gateway, then.maxMessageBytes);
  if (JSON.stringify([capabilities, instructions, serverInfo]) !== JSON.stringify([then.capabilities, then.instructions, then.serverInfo])) {
    gateway.log.warn("initialize was answered from a cached answer that differs from this gateway's (its plugins' registry entries changed); the next start answers the new one");
  }
}

/**
 * Keeps the slot's snapshot current: written now (after the session opened, off its first
 * requests' path) and again after the catalog changes, until shutdown. A cache that cannot be
 * written (read-only home) costs only the fast start, logged once at debug level.
 */
export function keepSnapshot(slot: CacheSlot, gateway: CacheKeeperGateway, maxMessageBytes: number): void {
  let timer: NodeJS.Timeout | undefined;
  let failed = false;
  const write = () => {
    if (gateway.signal.aborted || failed) return;
    try {
      writeSnapshot(slot, snapshotContent(gateway, maxMessageBytes));
    } catch (err) {
      failed = true;
      gateway.log.debug({ err, file: slot.file }, 'the catalog cache for fast --stdio starts cannot be written');
    }
  };
  setImmediate(write);
  const stop = gateway.catalog.onChange(() => {
    clearTimeout(timer);
    timer = setTimeout(write, REWRITE_AFTER_MS);
    timer.unref();
  });
  gateway.signal.addEventListener('abort', () => {
    clearTimeout(timer);
    stop();
  });
}

function snapshotContent(gateway: CacheKeeperGateway, maxMessageBytes: number): SnapshotContent {
  return {
    serverInfo: { name: 'mcp-gateway', version: GATEWAY_VERSION },
    capabilities: serverCapabilities(gateway.channels),
    instructions: SERVER_INSTRUCTIONS,
    protocolVersions: [LATEST_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== LATEST_PROTOCOL_VERSION)],
    maxMessageBytes,
    tools: stdioListings(gateway),
  };
}

/** What the stdio session lists: the tools of the start's profile (--profile, else the default). */
function stdioListings(gateway: CacheKeeperGateway) {
  return listingsFor(gateway.catalog, callerView(undefined, gateway.profiles.default));
}
