import { Gauge, Registry } from 'prom-client';
import type { Logger } from '../lib/logger.js';
import type { LoadedPlugin } from '../plugins/plugin-host.js';

/** A gauge's name within its plugin (`PluginReport.gauges`). */
export const GAUGE_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** Prometheus label names; those starting with `__` are Prometheus's own. */
const LABEL_NAME = /^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$/;

interface Sample {
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The entries of one metric name in one scrape. */
interface Family {
  readonly plugin: string;
  readonly help: string;
  readonly labelNames: string[];
  readonly samples: Sample[];
}

/**
 * A prom-client registry that runs its hooks at the start of every scrape, before it reads its
 * metrics: the gauges plugins report are named at run time, and a family first named in this
 * scrape must be registered before prom-client lists the metrics it will collect.
 */
export class ScrapeRegistry extends Registry {
  readonly #hooks: Array<() => void> = [];

  beforeScrape(hook: () => void): void {
    this.#hooks.push(hook);
  }

  override async metrics(): Promise<string> {
    for (const hook of this.#hooks) hook();
    return super.metrics();
  }
}

/**
 * Serves the gauges of the plugins' reports (ctx.reportStatus) as `mcp_gateway_<plugin>_<name>`.
 * Each scrape asks every plugin once; each family's `collect` then sets what its plugin gave.
 * A family no plugin reports any more leaves the registry, so a scrape never shows stale
 * numbers. Whatever a plugin gets wrong is dropped with a warning: /metrics always answers.
 */
export function addPluginGauges(registry: ScrapeRegistry, plugins: () => readonly Pick<LoadedPlugin, 'name' | 'gauges'>[], log: Logger): void {
  const served = new Map<string, { shape: string; samples: Sample[] }>();
  registry.beforeScrape(() => {
    try {
      // A name taken by another metric (core's, say `mcp_gateway_breaker_state`) is not the plugin's.
      const takenByCore = (name: string) => !served.has(name) && registry.getSingleMetric(name) !== undefined;
      const families = reportedFamilies(plugins(), takenByCore, log);
      for (const [name, current] of served) {
        const family = families.get(name);
        if (family && shapeOf(family) === current.shape) continue;
        registry.removeSingleMetric(name);
        served.delete(name);
      }
      for (const [name, family] of families) {
        const current = served.get(name) ?? serve(name, family);
        if (current) current.samples = family.samples;
      }
    } catch (err) {
      log.error({ err }, 'plugin gauges could not be collected');
    }
  });

  function serve(name: string, family: Family) {
    const current = { shape: shapeOf(family), samples: family.samples };
    new Gauge({
      name,
      help: family.help,
      labelNames: family.labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const sample of current.samples) this.set(sample.labels, sample.value);
      },
    });
    served.set(name, current);
    return current;
  }
}

/** Help and label names: a family whose shape changed is registered anew. */
function shapeOf(family: Family): string {
  return JSON.stringify([family.help, family.labelNames]);
}

/** This scrape's families by metric name, from every plugin's report. */
function reportedFamilies(plugins: readonly Pick<LoadedPlugin, 'name' | 'gauges'>[], takenByCore: (name: string) => boolean, log: Logger): Map<string, Family> {
  const families = new Map<string, Family>();
  for (const plugin of plugins) {
    const entries = plugin.gauges();
    if (entries === undefined) continue;
    const drop = (entry: unknown, why: string) =>
      log.warn({ plugin: plugin.name, gauge: (entry as { name?: unknown } | null)?.name }, `a gauge the plugin reported was dropped: ${why}`);
    if (!Array.isArray(entries)) {
      drop(undefined, 'gauges must be a list');
      continue;
    }
    const prefix = `mcp_gateway_${plugin.name.replaceAll('-', '_')}_`;
    for (const entry of entries) {
      const problem = entryProblem(entry);
      if (problem) {
        drop(entry, problem);
        continue;
      }
      const { name, help, labels = {}, value } = entry as { name: string; help: string; labels?: Record<string, string>; value: number };
      const metric = prefix + name;
      const labelNames = Object.keys(labels).sort();
      let family = families.get(metric);
      if (!family) {
        if (takenByCore(metric)) {
          drop(entry, `${metric} is the name of another metric`);
          continue;
        }
        families.set(metric, (family = { plugin: plugin.name, help, labelNames, samples: [] }));
      } else if (family.plugin !== plugin.name) {
        drop(entry, `${metric} is the name of a gauge of plugin "${family.plugin}"`);
        continue;
      } else if (family.labelNames.join() !== labelNames.join()) {
        drop(entry, `every entry named "${name}" must have the label names [${family.labelNames.join(', ')}]`);
        continue;
      }
      family.samples.push({ labels, value });
    }
  }
  return families;
}

/** What is wrong with one reported entry, if anything. */
function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return 'an entry must be {name, help, labels?, value}';
  const { name, help, labels, value } = entry as Record<string, unknown>;
  if (typeof name !== 'string' || !GAUGE_NAME.test(name)) return `name must match ${GAUGE_NAME.source}`;
  if (typeof help !== 'string' || help.trim() === '') return 'help must be a non-empty string';
  if (typeof value !== 'number') return 'value must be a number';
  if (labels === undefined) return undefined;
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) return 'labels must be an object of strings';
  for (const [key, label] of Object.entries(labels)) {
    if (!LABEL_NAME.test(key)) return `label name "${key}" must match ${LABEL_NAME.source}`;
    if (typeof label !== 'string') return `label "${key}" must be a string`;
  }
  return undefined;
}
