import { GatewayError } from '../contract/errors.js';
import { globToRegExp } from '../lib/glob.js';
import type { ProfileBoundary, RegisteredTool } from './tool-catalog.js';
import { SEARCH_TOOL_NAMES } from './tool-search-names.js';
import { ALL_PROFILE, profileNames, type ProfileConfig } from '../config/profile-config.js';

/** Tools in every profile (unless excluded): a client's way to the tools its profile does not list. */
const SEARCH_TOOLS: ReadonlySet<string> = new Set(SEARCH_TOOL_NAMES);

/**
 * A named subset of the catalog. A property of the endpoint or the API key, never of a
 * connection: every client of one endpoint and key sees the same tools.
 */
export interface Profile extends ProfileBoundary {
  readonly name: string;
  readonly description?: string;
  readonly others: 'refuse' | 'search';
  /** Whether tools/list (GET /tools, the OpenAPI document) shows `tool`. */
  lists(tool: RegisteredTool): boolean;
  /** Whether `tool` may be called: every tool it lists, and with `others: search` every other one too. */
  allows(tool: RegisteredTool): boolean;
  /** Whether the resources and prompts of `plugin` are offered: those of the plugins it holds tools of. */
  allowsPlugin(plugin: string): boolean;
}

/** What a profile's selectors pick from a catalog. */
export interface ProfileSelection {
  readonly profile: string;
  /** Plugins and tool globs that pick nothing from the catalog (a warning at boot, named). */
  readonly unmatched: readonly string[];
}

/** The catalog as profiles read it: its tools, and word when they change. */
export interface ProfileCatalog {
  list(): readonly RegisteredTool[];
  onChange(listener: () => void): unknown;
}

/**
 * The profiles of one gateway: the config's and `all`. Membership is decided per tool, so
 * tools that appear later (an upstream server that reconnects) fall into the profiles whose
 * selectors name them.
 */
export class Profiles {
  readonly #byName = new Map<string, Profile>();
  readonly #configs: Readonly<Record<string, ProfileConfig>>;
  readonly #catalog: ProfileCatalog;
  /** Per profile, the plugins it holds tools of; dropped when the catalog changes. */
  readonly #plugins = new Map<string, ReadonlySet<string>>();
  /** The profile of MCP clients that name none (config `defaultProfile`, else `all`). */
  readonly default: Profile;

  constructor(configs: Readonly<Record<string, ProfileConfig>>, defaultName: string | undefined, catalog: ProfileCatalog) {
    this.#configs = configs;
    this.#catalog = catalog;
    catalog.onChange(() => this.#plugins.clear());
    this.#byName.set(ALL_PROFILE, { name: ALL_PROFILE, description: 'Every tool of the catalog.', others: 'refuse', lists: () => true, allows: () => true, allowsPlugin: () => true });
    for (const [name, config] of Object.entries(configs)) this.#byName.set(name, this.#compile(name, config));
    this.default = this.require(defaultName ?? ALL_PROFILE);
  }

  get(name: string): Profile | undefined {
    return this.#byName.get(name);
  }

  /** The named profile; throws PROFILE_NOT_FOUND. */
  require(name: string): Profile {
    const profile = this.#byName.get(name);
    if (profile) return profile;
    throw this.notFound(name);
  }

  /** PROFILE_NOT_FOUND for `name`, naming the profiles there are. */
  notFound(name: string): GatewayError {
    return profileNotFound(name, this.names());
  }

  /** Every profile's name, `all` first. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The tools `profile` lists now. */
  listed(profile: Profile): RegisteredTool[] {
    return this.#catalog.list().filter((tool) => profile.lists(tool));
  }

  /** For each configured profile, the selectors that pick nothing from the catalog. */
  unmatched(): ProfileSelection[] {
    const tools = this.#catalog.list();
    return Object.entries(this.#configs).flatMap(([profile, config]) => {
      const unmatched = [
        ...(config.plugins ?? []).filter((plugin) => !tools.some((t) => t.plugin === plugin)).map((plugin) => `plugin ${plugin}`),
        ...[...(config.tools ?? []), ...(config.exclude ?? [])].filter((glob) => !tools.some((t) => globToRegExp(glob).test(t.listing.name))).map((glob) => `tool ${glob}`),
      ];
      return unmatched.length ? [{ profile, unmatched }] : [];
    });
  }

  #compile(name: string, config: ProfileConfig): Profile {
    const plugins = new Set(config.plugins ?? []);
    const included = (config.tools ?? []).map(globToRegExp);
    const excluded = (config.exclude ?? []).map(globToRegExp);
    const lists = (tool: RegisteredTool): boolean => {
      const toolName = tool.listing.name;
      if (excluded.some((glob) => glob.test(toolName))) return false;
      return SEARCH_TOOLS.has(toolName) || plugins.has(tool.plugin) || included.some((glob) => glob.test(toolName));
    };
    const others = config.others ?? 'refuse';
    const holds = (plugin: string): boolean => {
      let held = this.#plugins.get(name);
      if (!held) {
        held = new Set([...plugins, ...this.#catalog.list().filter(lists).map((tool) => tool.plugin)]);
        this.#plugins.set(name, held);
      }
      return held.has(plugin);
    };
    return {
      name,
      ...(config.description === undefined ? {} : { description: config.description }),
      others,
      lists,
      allows: others === 'search' ? () => true : lists,
      // Resources cost a client nothing until it reads one: a searchable profile keeps them all.
      allowsPlugin: others === 'search' ? () => true : holds,
    };
  }
}

/** The profile named by a command line (`--profile`), checked against the config's before anything starts. */
export function checkProfileName(configs: Readonly<Record<string, ProfileConfig>>, name: string): void {
  const names = profileNames(configs);
  if (!names.includes(name)) throw profileNotFound(name, names);
}

function profileNotFound(name: string, names: readonly string[]): GatewayError {
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return new GatewayError('PROFILE_NOT_FOUND', `No profile is named "${shown}". The profiles are: ${names.join(', ')}.`, { details: { profiles: names } });
}
