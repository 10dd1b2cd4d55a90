/**
 * Which gateway names (tools, prompts, resource URIs) the plugin's servers hold, so that a
 * clash between two of them is refused with both sources named. A clash with another plugin
 * is caught by core, whose message names that plugin.
 */
export class NameClaims {
  readonly #holders = new Map<string, string>();

  /** Claims `name` for `source`; returns the source already holding it, if another does. */
  claim(name: string, source: string): string | undefined {
    const holder = this.#holders.get(name);
    if (holder !== undefined && holder !== source) return holder;
    this.#holders.set(name, source);
    return undefined;
  }

  release(name: string, source: string): void {
    if (this.#holders.get(name) === source) this.#holders.delete(name);
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
