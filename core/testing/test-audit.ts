/**
 * The audit as a test reads it: each audited call's row, so that a test can see how a call
 * ended on the gateway's side (a cancelled call, say, whose client saw only its own abort).
 */
import type { Gateway } from '../gateway/gateway.js';

/** One audited call, as its row in the gateway's `core_audit` table keeps it. */
export interface TestAuditRow {
  /** The tool called (for a resource or prompt, what `kind` says). */
  readonly tool: string;
  /** The plugin that served it; null for core's own. */
  readonly plugin: string | null;
  /** `ok`, or the error code the call ended with (`CANCELLED`, `TIMEOUT`, a plugin's code). */
  readonly outcome: string;
  /** `tool`, `resource` or `prompt`. */
  readonly kind: string;
  /** `memory`, `stdio`, `tcp`, `unix` or `http`. */
  readonly transport: string;
  readonly durationMs: number;
}

/**
 * The audited calls of `gateway`, oldest first; only those of `tool` when given. Flushes the
 * audit log first: rows wait in its journal for a moment before they reach the table, and a
 * test must not wait on that. Empty when `tools.audit` is off.
 */
export function auditRows(gateway: Gateway, tool?: string): TestAuditRow[] {
  const audit = gateway.audit;
  if (!audit) return [];
  audit.flush();
  const columns = 'tool, plugin, outcome, kind, transport, duration_ms AS durationMs';
  const rows = tool === undefined
    ? gateway.db.prepare(`SELECT ${columns} FROM core_audit ORDER BY id`).all()
    : gateway.db.prepare(`SELECT ${columns} FROM core_audit WHERE tool = ? ORDER BY id`).all(tool);
  return rows as TestAuditRow[];
}
