/** What a run does, from the environment. Every duration is bounded; BENCH_QUICK=1 is a smoke run. */
export interface BenchOptions {
  readonly quick: boolean;
  /** Seconds each side runs in one round of a throughput comparison. */
  readonly seconds: number;
  /**
   * Seconds each side runs under load before a throughput comparison is measured. A server
   * takes many thousands of requests to reach its steady speed (V8 tiering up the hot path,
   * the heap settling); a long-running gateway spends its life there.
   */
  readonly warmSeconds: number;
  /** Rounds per comparison; sides alternate, the median ratio is reported. */
  readonly rounds: number;
  readonly sections: ReadonlySet<SectionName>;
  /** Calls made to measure memory growth. */
  readonly memoryCalls: number;
  /** Files in the generated search tree. */
  readonly treeFiles: number;
  /** Rows of the storage section's workload (insert, point read, full-text query). */
  readonly storageRows: number;
  readonly startupRuns: number;
  /** Files of the generated tree the knowledge section ingests. */
  readonly knowledgeFiles: number;
  /** Profile the gateway (node --cpu-prof) where a target is missed. */
  readonly profile: boolean;
  /** Regenerate docs/performance.md (default: only after a full, non-quick run of every section). */
  readonly write: boolean;
  /** Seconds the soak's 32 clients keep calling (issue 34: 90). */
  readonly soakSeconds: number;
  /** Hard limit for the whole run; past it every child is killed and the run fails. */
  readonly maxSeconds: number;
  /** The bench process on one CPU, the servers on the others (lib/cpu-pinning.ts). */
  readonly pin: boolean;
}

export const SECTION_NAMES = ['mcp', 'rest', 'files', 'startup', 'growth', 'process', 'storage', 'upstream', 'peers', 'knowledge', 'brain', 'collab', 'webview', 'soak', 'tool-definitions'] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

function number(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw !== '0' && raw.toLowerCase() !== 'false';
}

export function readOptions(): BenchOptions {
  const quick = flag('BENCH_QUICK', false);
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only ?? []) {
    if (!(SECTION_NAMES as readonly string[]).includes(name)) throw new Error(`BENCH_ONLY: unknown section "${name}" (known: ${SECTION_NAMES.join(', ')})`);
  }
  const sections = new Set<SectionName>((only as SectionName[] | undefined) ?? SECTION_NAMES);
  const complete = !quick && sections.size === SECTION_NAMES.length;
  return {
    quick,
    seconds: number('BENCH_SECONDS', quick ? 0.4 : 2),
    warmSeconds: number('BENCH_WARM_SECONDS', quick ? 1 : 8),
    rounds: Math.round(number('BENCH_ROUNDS', quick ? 2 : 5)),
    sections,
    memoryCalls: Math.round(number('BENCH_MEMORY_CALLS', quick ? 10_000 : 100_000)),
    treeFiles: Math.round(number('BENCH_TREE_FILES', quick ? 2_000 : 10_000)),
    storageRows: Math.round(number('BENCH_STORAGE_ROWS', quick ? 5_000 : 100_000)),
    startupRuns: Math.round(number('BENCH_STARTUP_RUNS', quick ? 2 : 5)),
    knowledgeFiles: Math.round(number('BENCH_KNOWLEDGE_FILES', quick ? 1_000 : 10_000)),
    profile: flag('BENCH_PROFILE', !quick),
    write: flag('BENCH_WRITE', complete),
    soakSeconds: number('BENCH_SOAK_SECONDS', quick ? 10 : 90),
    maxSeconds: number('BENCH_MAX_SECONDS', 2400),
    pin: flag('BENCH_PIN', true),
  };
}
