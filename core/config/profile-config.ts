// The `profiles:` section of the config, as read; core/catalog/profiles.ts makes them subsets of the catalog.

/** A profile as written under `profiles:` in the config. */
export interface ProfileConfig {
  readonly description?: string;
  /** Every tool of these plugins. */
  readonly plugins?: readonly string[];
  /** Tool names, `*` matching any run of characters. */
  readonly tools?: readonly string[];
  /** Tool names (globs) left out, whatever else selected them. */
  readonly exclude?: readonly string[];
  /**
   * Tools outside the profile: `refuse` them on every path (the profile is a boundary), or
   * let the caller `search` for them with gateway_find_tools and call them (the profile is
   * what a client lists up front, the rest one call away).
   */
  readonly others?: 'refuse' | 'search';
}

/** The profile that is always there: the whole catalog. A config may not define its own. */
export const ALL_PROFILE = 'all';

/** `all` and the config's profile names. */
export function profileNames(configs: Readonly<Record<string, ProfileConfig>>): string[] {
  return [ALL_PROFILE, ...Object.keys(configs)];
}
