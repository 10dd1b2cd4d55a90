/**
 * Kysely, as core and plugins use it. Every import of Kysely in core goes through this file so
 * that the build can replace its compiled form with one bundled file (scripts/bundle-kysely.js):
 * Kysely is some 300 modules, and loading them one by one cost ~180 ms of every start-up,
 * where the bundle loads in ~30 ms. From source (tsx) this is the package itself.
 */
export * from 'kysely';
