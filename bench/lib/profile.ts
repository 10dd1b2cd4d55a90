import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './children.js';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  where: string;
  percent: number;
}

export interface ProfileSummary {
  title: string;
  areas: ProfileEntry[];
  selfTop: ProfileEntry[];
  /** Functions in core/ and plugins/, by inclusive time. */
  oursTop: ProfileEntry[];
}

/** Node flags that make a child write a CPU profile into a fresh folder when it exits. */
export function cpuProfileFlags(): { nodeArgs: string[]; dir: string } {
  const dir = tempDir('mcpgw-prof-');
  return { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'], dir };
}

/** Where a script URL belongs: a core or plugin file, a package, or node itself. */
function areaOf(url: string, fn: string): string {
  if (!url) {
    if (fn === '(garbage collector)') return 'V8: garbage collector';
    if (fn === '(idle)') return 'idle (waiting for I/O)';
    if (fn === '(program)') return 'V8/native: (program)';
    return `native: ${fn || '(anonymous)'}`;
  }
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(core|plugins\/[^/]+|bench)\/(.+?)\.(?:js|ts)$/.exec(url);
  if (ours) return `gateway: ${ours[1]}/${ours[2]}`;
  return url;
}

function whereOf(url: string, line: number): string {
  if (!url) return '';
  const path = url.replace(/^file:\/\//, '');
  const short = path.includes('node_modules/') ? path.replace(/^.*node_modules\//, '') : path.replace(/^.*?\/(dist\/)?(?=(core|plugins|bench)\/)/, '');
  return `${short}:${line + 1}`;
}

/** Reads the one .cpuprofile in `dir` and summarises it. */
export function summariseProfile(dir: string, title: string, top = 15): ProfileSummary {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const key = (n: CpuProfileNode) => `${n.callFrame.functionName || '(anonymous)'}\u0000${n.callFrame.url}\u0000${n.callFrame.lineNumber}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    if (delta <= 0) continue;
    const node = byId.get(profile.samples[i]!)!;
    total += delta;
    self.set(key(node), (self.get(key(node)) ?? 0) + delta);
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + delta);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + delta);
    }
  }
  const entry = ([k, t]: [string, number]): ProfileEntry => {
    const [name, url, line] = k.split('\u0000');
    return { name: name!, where: whereOf(url!, Number(line)), percent: (100 * t) / total };
  };
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    title,
    areas: sorted(areas).slice(0, top).map(([name, t]) => ({ name, where: '', percent: (100 * t) / total })),
    selfTop: sorted(self).slice(0, top).map(entry),
    oursTop: sorted(inclusive)
      .filter(([k]) => !k.includes('node_modules') && /\/(core|plugins)\/[^\u0000]+\.(js|ts)\u0000/.test(k))
      .slice(0, top)
      .map(entry),
  };
}
