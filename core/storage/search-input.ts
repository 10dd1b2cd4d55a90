import { GatewayError } from '../contract/errors.js';
import type { CheckedFilters, PreparedDocument } from './search-engine.js';
import { encodeVector } from './search-scores.js';
import { documentText } from './search-terms.js';
import type { SearchDocument, SearchFilterValue } from '../contract/search-types.js';

const MAX_ID_LENGTH = 512;
const MAX_TEXT_BYTES = 1024 * 1024;
const FILTER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_FILTERS = 32;

/**
 * Checks a batch before anything is written, so that one bad document leaves the index as it
 * was. A batch naming one id twice keeps the last (PostgreSQL refuses one statement that
 * writes a row twice).
 */
export function checkDocuments(docs: readonly SearchDocument[], index: string, dimensions: number | undefined): PreparedDocument[] {
  if (!Array.isArray(docs)) throw new GatewayError('SEARCH_DOCUMENT_INVALID', `Search index "${index}": index takes an array of documents.`);
  const byId = new Map<string, PreparedDocument>();
  docs.forEach((doc, at) => {
    const fail = (why: string) => new GatewayError('SEARCH_DOCUMENT_INVALID', `Search index "${index}": document ${at}${typeof doc?.id === 'string' ? ` ("${doc.id.slice(0, 80)}")` : ''}: ${why}`);
    if (typeof doc !== 'object' || doc === null) throw fail('is not an object with id and fields.');
    if (typeof doc.id !== 'string' || doc.id.length === 0 || doc.id.length > MAX_ID_LENGTH) throw fail(`id must be a string of 1 to ${MAX_ID_LENGTH} characters.`);
    if (typeof doc.fields !== 'object' || doc.fields === null || Array.isArray(doc.fields)) throw fail('fields must be an object of strings.');
    for (const [key, value] of Object.entries(doc.fields)) if (typeof value !== 'string') throw fail(`field "${key}" is not a string.`);
    const text = documentText(doc.fields);
    if (Buffer.byteLength(text) > MAX_TEXT_BYTES) throw fail('its fields hold more than 1 MiB of text; split it into several documents.');
    const embedding = doc.embedding === undefined ? null : encodeVector(checkVector(doc.embedding, index, dimensions, `document ${at}'s embedding`));
    const filters = checkFilters(doc.filters, (why) => fail(`filters: ${why}`));
    byId.delete(doc.id);
    byId.set(doc.id, { id: doc.id, text, filters: JSON.stringify(Object.fromEntries(filters)), embedding });
  });
  return [...byId.values()];
}

/** A vector of the index's length and finite numbers, or SEARCH_DIMENSION_MISMATCH / SEARCH_QUERY_INVALID. */
export function checkVector(vector: unknown, index: string, dimensions: number | undefined, what: string): number[] {
  if (!Array.isArray(vector)) throw new GatewayError('SEARCH_QUERY_INVALID', `Search index "${index}": ${what} must be an array of numbers.`);
  if (dimensions === undefined) {
    throw new GatewayError('SEARCH_DIMENSION_MISMATCH', `Search index "${index}" was created without vectors, so ${what} cannot be used; open an index with dimensions for embeddings.`);
  }
  if (vector.length !== dimensions) {
    throw new GatewayError('SEARCH_DIMENSION_MISMATCH', `Search index "${index}" holds vectors of ${dimensions} dimensions, and ${what} has ${vector.length}. Use the embedding model the index was built with.`);
  }
  if (!vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new GatewayError('SEARCH_QUERY_INVALID', `Search index "${index}": ${what} holds a value that is not a finite number.`);
  }
  return vector as number[];
}

/** Filters as checked name/value pairs: names safe for a JSON path, values string, number or boolean. */
export function checkFilters(filters: unknown, fail: (why: string) => GatewayError): CheckedFilters {
  if (filters === undefined) return [];
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) throw fail('must be an object of name: value.');
  const entries = Object.entries(filters as Record<string, unknown>);
  if (entries.length > MAX_FILTERS) throw fail(`at most ${MAX_FILTERS} names.`);
  return entries.map(([name, value]) => {
    if (!FILTER_NAME.test(name)) throw fail(`name ${JSON.stringify(name)} must be letters, digits and _ (not starting with a digit), up to 64.`);
    if (!isFilterValue(value)) throw fail(`"${name}" must be a string, a finite number or a boolean.`);
    return [name, value] as const;
  });
}

function isFilterValue(value: unknown): value is SearchFilterValue {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}
