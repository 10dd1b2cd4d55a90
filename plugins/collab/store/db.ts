// What every store function takes: the store, or a transaction on it. A function works inside
// either, so the caller's transaction — not the store — decides what is atomic.
import type { Transaction } from '@mcp-gateway/core';
import type { CollabStore } from '../context.js';
import type { CollabTables } from './schema.js';

export type CollabDb = CollabStore['db'] | Transaction<CollabTables>;
