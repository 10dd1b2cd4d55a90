import { GatewayError } from '../contract/errors.js';
import type { Principal } from '../auth/api-keys.js';
import { ALL_PROFILE } from '../config/profile-config.js';
import type { Profile, Profiles } from './profiles.js';
import type { Tool } from '@modelcontextprotocol/server';
import type { RegisteredTool, ToolCatalog } from './tool-catalog.js';

/**
 * What one caller may see and call: its API key's scopes and the profile of its endpoint or
 * key. Each part is absent when it narrows nothing, so an unprofiled owner session lists the
 * catalog's cached listings as before.
 */
export interface CallerView {
  /** The key's scopes: a tool outside them answers FORBIDDEN. */
  readonly allows?: (tool: RegisteredTool) => boolean;
  /** The profile: a tool it does not allow answers NOT_IN_PROFILE; tools/list shows only what it lists. */
  readonly profile?: Profile;
  /** The plugins whose resources and prompts the caller sees: the key's and the profile's. */
  readonly allowsPlugin?: (plugin: string) => boolean;
}

/**
 * The profile a request sees: the key's when the key is bound to one (it may then use only
 * the plain endpoint or its own profile's), else the endpoint's, else `fallback` (the default
 * profile for MCP, `all` for REST).
 */
export function chooseProfile(profiles: Profiles, endpoint: string | undefined, principal: Principal | undefined, fallback: Profile): Profile {
  const bound = principal?.profile;
  if (bound !== undefined) {
    if (endpoint !== undefined && endpoint !== bound) {
      throw new GatewayError(
        'PROFILE_FORBIDDEN',
        `The API key "${principal!.name}" is bound to the profile "${bound}"; use /mcp/${bound} (or /mcp), not the endpoint of "${endpoint.slice(0, 40)}".`,
      );
    }
    // A key from the shared store may name a profile this gateway's config lacks: refuse, never widen.
    return profiles.require(bound);
  }
  return endpoint === undefined ? fallback : profiles.require(endpoint);
}

/**
 * A REST request's view: the URL's profile (`/profiles/<profile>/…`) or, on the plain paths,
 * the whole catalog, since REST callers are scripts, not models paying for a tool list; a
 * key bound to a profile sees that profile either way.
 */
export function restView(profiles: Profiles, principal: Principal | undefined, endpoint?: string): CallerView {
  return callerView(principal, chooseProfile(profiles, endpoint, principal, profiles.require(ALL_PROFILE)));
}

/**
 * The view of `principal` through `profile`, made once per pair: REST asks for it on every
 * call, and a new object with two closures per call showed in its profile.
 */
export function callerView(principal: Principal | undefined, profile: Profile): CallerView {
  const byProfile = principal ? (views.get(principal) ?? setView(principal)) : anonymousViews;
  let view = byProfile.get(profile);
  if (!view) {
    view = makeView(principal, profile);
    byProfile.set(profile, view);
  }
  return view;
}

/** Per principal (a key the store's refresh replaces is dropped with it), per profile. */
const views = new WeakMap<Principal, WeakMap<Profile, CallerView>>();
const anonymousViews = new WeakMap<Profile, CallerView>();

function setView(principal: Principal): WeakMap<Profile, CallerView> {
  const byProfile = new WeakMap<Profile, CallerView>();
  views.set(principal, byProfile);
  return byProfile;
}

function makeView(principal: Principal | undefined, profile: Profile): CallerView {
  const scoped = profile.name === ALL_PROFILE ? undefined : profile;
  if (!principal && !scoped) return {};
  const allowsPlugin = (plugin: string) => (principal?.mayUsePlugin(plugin) ?? true) && (scoped?.allowsPlugin(plugin) ?? true);
  return {
    ...(principal ? { allows: (tool: RegisteredTool) => principal.mayCallTool(tool.listing.name, tool.plugin) } : {}),
    ...(scoped ? { profile: scoped } : {}),
    allowsPlugin,
  };
}

/** Whether a caller's tools/list (GET /tools, the OpenAPI document) shows `tool`. */
export function listsTool(view: CallerView, tool: RegisteredTool): boolean {
  return (view.allows?.(tool) ?? true) && (view.profile?.lists(tool) ?? true);
}

/** A caller's tools/list entries: the catalog's cached ones when nothing narrows them. */
export function listingsFor(catalog: ToolCatalog, view: CallerView): Tool[] {
  return view.allows || view.profile ? catalog.list().filter((t) => listsTool(view, t)).map((t) => t.listing) : catalog.listings();
}
