/**
 * Kysely, as core and plugins use it (see ./README.md for why it goes through this file).
 * Some 300 modules: loaded one by one they cost ~180 ms of every start-up, bundled ~30 ms.
 */
export * from 'kysely';
