/**
 * Which gateway names the plugin's servers hold, per kind (tools, prompts and resource URIs are
 * separate namespaces, as in the catalogs), so that a clash between two of them is refused with
 * both sources named. A clash with another plugin is caught by core, whose message names it.
 */
export class NameClaims {
  readonly #holders = new Map<string, string>();

  /** Claims `name` for `source`; returns the source already holding it, if another does. */
  claim(kind: Conflict['kind'], name: string, source: string): string | undefined {
    const key = `${kind}:${name}`;
    const holder = this.#holders.get(key);
    if (holder !== undefined && holder !== source) return holder;
    this.#holders.set(key, source);
    return undefined;
  }

  release(kind: Conflict['kind'], name: string, source: string): void {
    const key = `${kind}:${name}`;
    if (this.#holders.get(key) === source) this.#holders.delete(key);
  }
}

/** An entry the plugin could not offer (a clash, a schema that does not compile, a task-only tool), and why: shown in gateway_status. */
export interface Conflict {
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The name or URI the server uses. */
  readonly upstream: string;
  /** The name the gateway would have used. */
  readonly name: string;
  readonly reason: string;
}
