import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OptionalVectors, VectorFiller, type Logger, type VectorSource, type VectorsOutcome } from '../../../core/index.js';
import { createLogger } from '../../../core/lib/logger.js';

/** A provider that embeds a text as [its length], refuses texts in `refused`, and is down while `down` is set. */
function source(options: { refused?: Set<string>; down?: { value: boolean } } = {}): VectorSource & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    space: 'test_1',
    dimensions: 1,
    readiness: () => ({ ok: true }),
    async tryEmbed(texts): Promise<VectorsOutcome> {
      calls.push([...texts]);
      if (options.down?.value) return { vectors: null, reason: 'provider down' };
      if (texts.some((t) => options.refused?.has(t))) return { vectors: null, reason: 'too long', refused: true };
      return { vectors: texts.map((t) => [t.length]) };
    },
  };
}

/** Rows as a plugin keeps them: text and the vector space they have (null, a space, or !space). */
function rows(texts: string[]) {
  const table = texts.map((text) => ({ text, space: null as string | null, vector: null as number[] | null }));
  type Row = (typeof table)[number];
  const backlog = {
    next: async (space: string, limit: number) => table.filter((r) => r.space !== space && r.space !== `!${space}`).slice(0, limit),
    text: (row: Row) => row.text,
    store: async (batch: readonly Row[], vectors: number[][]) => batch.forEach((row, i) => Object.assign(row, { space: 'test_1', vector: vectors[i] })),
    refuse: async (row: Row, space: string) => void (row.space = `!${space}`),
  };
  return { table, backlog };
}

describe('OptionalVectors', () => {
  it('without the embeddings plugin: no space, and every embed answers why', async () => {
    const none = new OptionalVectors(undefined);
    assert.equal(none.space, null);
    assert.equal(none.dimensions, null);
    assert.equal(none.unavailable(), 'the embeddings plugin is not enabled');
    assert.deepEqual(await none.embed(['a'], 'query'), { vectors: null, reason: 'the embeddings plugin is not enabled' });
  });

  it('with it: its space, its readiness, and its vectors', async () => {
    const vectors = new OptionalVectors({ ...source(), readiness: () => ({ ok: false, reason: 'breaker open' }) });
    assert.equal(vectors.space, 'test_1');
    assert.equal(vectors.unavailable(), 'breaker open');
    assert.deepEqual(await vectors.embed(['abc'], 'document'), { vectors: [[3]] });
  });
});

describe('VectorFiller', () => {
  const log = createLogger('silent');

  it('fills every row, a refused batch item by item, and marks the row refused alone', async () => {
    const provider = source({ refused: new Set(['bad']) });
    const { table, backlog } = rows(['one', 'bad', 'three']);
    await new VectorFiller(new OptionalVectors(provider), backlog, log, 'fill failed').fill();
    assert.deepEqual(
      table.map((r) => [r.text, r.space, r.vector]),
      [
        ['one', 'test_1', [3]],
        ['bad', '!test_1', null],
        ['three', 'test_1', [5]],
      ],
    );
    assert.deepEqual(provider.calls, [['one', 'bad', 'three'], ['one'], ['bad'], ['three']]);
  });

  it('stops while the provider is down and leaves the rows for the next fill; one run at a time', async () => {
    const down = { value: true };
    const provider = source({ down });
    const { table, backlog } = rows(['a', 'b']);
    const filler = new VectorFiller(new OptionalVectors(provider), backlog, log, 'fill failed');
    await filler.fill();
    assert.deepEqual(table.map((r) => r.space), [null, null]);
    down.value = false;
    const [first, second] = [filler.fill(), filler.fill()];
    assert.equal(first, second, 'a fill that runs is joined');
    await first;
    assert.deepEqual(table.map((r) => r.space), ['test_1', 'test_1']);
    assert.equal(provider.calls.length, 2);
  });

  it('never rejects: a failing store is logged with the warning given, and the next fill tries again', async () => {
    const warnings: Array<[unknown, string]> = [];
    const recording = { warn: (fields: unknown, message: string) => void warnings.push([fields, message]) } as unknown as Logger;
    const { table, backlog } = rows(['a']);
    let fail = true;
    const flaky = { ...backlog, store: (batch: readonly (typeof table)[number][], vectors: number[][]) => (fail ? Promise.reject(new Error('disk full')) : backlog.store(batch, vectors)) };
    const filler = new VectorFiller(new OptionalVectors(source()), flaky, recording, 'fill failed; tried again later');
    await filler.fill();
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]![1], 'fill failed; tried again later');
    assert.match(String((warnings[0]![0] as { err: Error }).err), /disk full/);
    fail = false;
    await filler.fill();
    assert.equal(table[0]!.space, 'test_1');
  });
});
