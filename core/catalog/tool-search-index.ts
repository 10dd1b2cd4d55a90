import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from '../vendor/kysely.js';
import { openSearchIndex } from '../storage/search-index.js';
import type { SearchDocument, SearchIndex } from '../contract/search-types.js';
import type { RegisteredTool, ToolCatalog } from './tool-catalog.js';

/** What the search engine can rank at once (search-index.ts's MAX_LIMIT). */
const MAX_CANDIDATES = 1000;
/** Hits scoring under this share of the best one matched only words most tools hold (see find). */
const NOISE_RATIO = 0.01;

export interface ToolSearchQuery {
  readonly text: string;
  /** Only tools of this plugin. */
  readonly plugin?: string;
  readonly limit: number;
  /** Whether the caller may call a tool (its key's scopes and its profile); every tool when absent. */
  readonly allows?: (tool: RegisteredTool) => boolean;
}

export interface ToolSearchHit {
  readonly tool: RegisteredTool;
  /** lexicalScore's scale: (0, 1), higher is better. */
  readonly score: number;
}

/**
 * The catalog's tools in a full-text index, ranked by the store's own lexical search (FTS5
 * bm25, search-index.ts). The tool set is this process's (its plugins, its upstream servers),
 * so the index lives in an in-memory SQLite database of its own rather than in the shared
 * store, which other gateways with other tools read too. It is brought up to date at the
 * first query after a change of the catalog, not at each change: a boot or an upstream
 * server adds tools one plugin at a time, and nobody may search in between.
 */
export class ToolSearchIndex {
  readonly #catalog: ToolCatalog;
  /** Tools never indexed: the search tools themselves. */
  readonly #hidden: ReadonlySet<string>;
  /** The database and its index, opened at the first search: most sessions never search. */
  #home: { readonly db: Kysely<any>; readonly index: Promise<SearchIndex> } | undefined;
  readonly #stopListening: () => void;
  /** The text indexed per tool name, to write only what changed. */
  readonly #indexed = new Map<string, string>();
  /** Bumped at every change of the catalog; the index is fresh when `#built` equals it. */
  #version = 0;
  #built = -1;
  #building: Promise<void> | undefined;

  constructor(catalog: ToolCatalog, hidden: readonly string[]) {
    this.#catalog = catalog;
    this.#hidden = new Set(hidden);
    this.#stopListening = catalog.onChange(() => void this.#version++);
  }

  /** The best matches the caller may call, best first, and how many matched in all. */
  async find(query: ToolSearchQuery): Promise<{ hits: ToolSearchHit[]; total: number }> {
    await this.#fresh();
    if (this.#indexed.size === 0) return { hits: [], total: 0 };
    const index = await this.#open();
    // Every match, not `limit` of them: the caller's reach is a function, not a filter the
    // engine can apply, and the total counts what is within it.
    const ranked = await index.query({
      text: query.text,
      limit: Math.min(this.#indexed.size, MAX_CANDIDATES),
      ...(query.plugin === undefined ? {} : { filters: { plugin: query.plugin } }),
    });
    const hits: ToolSearchHit[] = [];
    for (const { id, score } of ranked) {
      // FTS5 gives a word most tools hold ("a", "the", "file" in a files-only gateway) next to
      // no weight: a tool that matched only such words scores orders of magnitude below one
      // that matched a telling word, and is no match. When none matched a telling word, all stay.
      if (hits.length > 0 && score < hits[0]!.score * NOISE_RATIO) break;
      // A tool removed since the index was brought up to date is not offered.
      const tool = this.#catalog.get(id);
      if (tool && !this.#hidden.has(id) && (query.allows?.(tool) ?? true)) hits.push({ tool, score });
    }
    return { hits: hits.slice(0, query.limit), total: hits.length };
  }

  async close(): Promise<void> {
    this.#stopListening();
    if (!this.#home) return;
    await this.#home.index.catch(() => {});
    await this.#home.db.destroy();
  }

  #open(): Promise<SearchIndex> {
    if (!this.#home) {
      // Kysely's own SQLite dialect, without the store's adapter: that one maps errors to the
      // shared store's codes and waits out other processes' write locks, and no other process
      // or connection ever sees a private in-memory database.
      const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
      this.#home = { db, index: openSearchIndex({ db, dialect: 'sqlite', vectorEngine: 'exact', tablePrefix: 'gateway_', owner: 'gateway' }, 'tools') };
    }
    return this.#home.index;
  }

  /** Brings the index up to date with the catalog; concurrent queries share one update. */
  async #fresh(): Promise<void> {
    while (this.#built !== this.#version) {
      this.#building ??= this.#update().finally(() => (this.#building = undefined));
      await this.#building;
    }
  }

  async #update(): Promise<void> {
    const version = this.#version;
    const index = await this.#open();
    const documents = this.#catalog
      .list()
      .filter((tool) => !this.#hidden.has(tool.listing.name))
      .map(toolDocument);
    const current = new Set(documents.map((doc) => doc.id));
    const gone = [...this.#indexed.keys()].filter((name) => !current.has(name));
    const changed = documents.filter((doc) => this.#indexed.get(doc.id) !== documentKey(doc));
    if (gone.length) await index.remove(gone);
    if (changed.length) await index.index(changed);
    for (const name of gone) this.#indexed.delete(name);
    for (const doc of changed) this.#indexed.set(doc.id, documentKey(doc));
    this.#built = version;
  }
}

/**
 * What a tool is found by: its name and plugin as words, its title and description, and its
 * arguments' names and descriptions (what a model asks for is often an argument: "a line
 * range", "a glob").
 */
function toolDocument(tool: RegisteredTool): SearchDocument {
  const { name, title, description, inputSchema } = tool.definition;
  const properties = (inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
  const args = Object.entries(properties).map(([arg, schema]) => {
    const said = typeof schema === 'object' && schema !== null && typeof schema.description === 'string' ? schema.description : '';
    return `${identifierWords(arg)}: ${said}`;
  });
  return {
    id: name,
    fields: { name: identifierWords(name), plugin: identifierWords(tool.plugin), title: title ?? '', description: description ?? '', arguments: args.join('\n') },
    filters: { plugin: tool.plugin },
  };
}

/** `file_read` → `file read`, `sessionId` → `session Id`: the words a query would use. */
function identifierWords(identifier: string): string {
  return identifier.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/[_\-.]+/g, ' ');
}

/** A document's indexed content, to tell whether a re-registered tool changed. */
function documentKey(doc: SearchDocument): string {
  return JSON.stringify([doc.fields, doc.filters]);
}
