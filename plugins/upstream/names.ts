import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import type { ServerConfig } from './config.js';

/** The default prefix of a server's names: its own name, dashes as underscores, then `_`. */
export function prefixOf(server: Pick<ServerConfig, 'name' | 'prefix'>): string {
  return server.prefix ?? `${server.name.replace(/-/g, '_')}_`;
}

/**
 * An upstream's tool or prompt name as the gateway lists it: the prefix, then the name in
 * lower case with every character outside `[a-z0-9_]` as `_`. One that would be longer than
 * 64 characters is cut and ends in a hash of the full name, so two long names stay apart; one
 * that would not start with a letter gets `t_` first.
 */
export function gatewayName(prefix: string, upstreamName: string): string {
  let name = prefix + upstreamName.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!/^[a-z]/.test(name)) name = `t_${name}`;
  if (name.length > 64) name = `${name.slice(0, 55)}_${createHash('sha256').update(upstreamName).digest('hex').slice(0, 8)}`;
  return name;
}

/** Whether a server offers its tool `name`: matched by `include` (when given) and by no `exclude`. */
export function toolFilter(server: Pick<ServerConfig, 'include' | 'exclude'>): (name: string) => boolean {
  const included = server.include.length > 0 ? picomatch([...server.include]) : () => true;
  const excluded = server.exclude.length > 0 ? picomatch([...server.exclude]) : () => false;
  return (name) => included(name) && !excluded(name);
}
