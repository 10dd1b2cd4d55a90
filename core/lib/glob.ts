/**
 * A tool-name pattern (API key scopes, profiles, plugin exclusions) as a RegExp: `*` matches
 * any run of characters, everything else itself. Tool names hold no `/`, so path globs'
 * other rules would only surprise.
 */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}
