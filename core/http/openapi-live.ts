import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import type { Gateway } from '../gateway/gateway.js';
import { documentOptions } from './openapi-document.js';
import { toolRouteSchema } from './openapi.js';

/** What this file uses of the gateway. */
export type LiveDocumentGateway = Pick<Gateway, 'catalog' | 'errors' | 'log' | 'plugins' | 'routes' | 'version'>;

type Document = {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
  tags?: Array<{ name: string }>;
} & Record<string, unknown>;

/** The part of the document the tools make: their paths, their hoisted schemas, their plugins' tags. */
interface ToolPart {
  readonly version: number;
  readonly paths: Record<string, unknown>;
  readonly schemas: Record<string, unknown>;
  readonly tags: Array<{ name: string }>;
}

/**
 * Keeps the OpenAPI document in step with tools added or removed at run time. fastify routes
 * (and @fastify/swagger's document, built from them once) are fixed when the app is ready, so
 * after a change the tool paths are generated again by @fastify/swagger itself, on a small
 * app that has only the catalog's tool routes, with the same route schemas: one converter for
 * boot-time and run-time tools. Until the first change the document is fastify's, untouched.
 */
export class LiveToolDocument {
  readonly #gateway: LiveDocumentGateway;
  readonly #keysRequired: boolean;
  /** The tools whose routes (and paths) the app registered at start. */
  readonly #bootTools: ReadonlySet<string>;
  /** Catalog changes seen since the app started. */
  #version = 0;
  #built: ToolPart | undefined;
  #refreshing: Promise<void> | undefined;

  constructor(gateway: LiveDocumentGateway, keysRequired: boolean) {
    this.#gateway = gateway;
    this.#keysRequired = keysRequired;
    this.#bootTools = new Set(gateway.catalog.list().map((t) => t.listing.name));
  }

  /** The catalog changed: the tool paths are generated again in the background. */
  changed(): void {
    this.#version++;
    this.#refresh().catch((err: unknown) => this.#gateway.log.error({ err }, 'OpenAPI document could not follow a catalog change'));
  }

  /** `base` with the tool paths of the catalog as it is now (GET /openapi.json). */
  async current<T extends object>(base: T): Promise<T> {
    if (this.#version === 0) return base;
    await this.#refresh();
    return this.#merge(base, this.#built!);
  }

  /**
   * `base` with the latest tool paths generated, without waiting: for the explorer's copy,
   * which @fastify/swagger-ui asks for synchronously. It lags a change by one generation.
   */
  latest<T extends object>(base: T): T {
    return this.#version === 0 || !this.#built ? base : this.#merge(base, this.#built);
  }

  /** Generates the tool part until it matches the latest change; one generation at a time. */
  #refresh(): Promise<void> {
    if (this.#built?.version === this.#version) return Promise.resolve();
    // Only entered when a generation is due, so the loop awaits at least once and its
    // `finally` runs after the assignment, never before it.
    this.#refreshing ??= (async () => {
      try {
        while (this.#built?.version !== this.#version) this.#built = await this.#build(this.#version);
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  async #build(version: number): Promise<ToolPart> {
    const { catalog, errors } = this.#gateway;
    const app = Fastify({ logger: false });
    // As in the real app: route schemas only describe, and are never compiled.
    app.setValidatorCompiler(() => () => true);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    try {
      await app.register(swagger, { openapi: documentOptions(this.#gateway, this.#keysRequired) });
      for (const tool of catalog.list()) app.post(`/tools/${tool.listing.name}`, { schema: toolRouteSchema(tool, errors) }, () => null);
      await app.ready();
      const document = app.swagger() as Document;
      return { version, paths: document.paths ?? {}, schemas: document.components?.schemas ?? {}, tags: document.tags ?? [] };
    } finally {
      await app.close();
    }
  }

  #merge<T extends object>(base: T, part: ToolPart): T {
    const doc = base as Document;
    const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([path]) => !this.#isBootToolPath(path)));
    // Hoisted recursive schemas are named `<tool>.<definition>` (openapi.ts, forDocument).
    const kept = Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !this.#bootTools.has(name.split('.')[0]!));
    const tags = new Map((doc.tags ?? []).map((tag) => [tag.name, tag]));
    for (const tag of part.tags) tags.set(tag.name, tag);
    return {
      ...doc,
      tags: [...tags.values()],
      paths: { ...paths, ...part.paths },
      components: { ...doc.components, schemas: { ...Object.fromEntries(kept), ...part.schemas } },
    } as T;
  }

  #isBootToolPath(path: string): boolean {
    return path.startsWith('/tools/') && this.#bootTools.has(path.slice('/tools/'.length));
  }
}
