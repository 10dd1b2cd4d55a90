import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { textLines } from '../../../core/lib/text-lines.js';

async function linesOf(chunks: Array<string | Uint8Array>): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of textLines(Readable.from(chunks, { objectMode: true }))) lines.push(line);
  return lines;
}

describe('textLines', () => {
  it('splits at "\\n" only: U+2028 and U+2029 stay inside the line, as JSON strings may hold them raw', async () => {
    const message = JSON.stringify({ id: 'a\u2028b\u2029c' });
    assert.deepEqual(await linesOf([`${message}\n{"id":2}\n`]), [message, '{"id":2}']);
  });

  it('drops the "\\r" of "\\r\\n", keeps empty lines, and gives a last line without "\\n"', async () => {
    assert.deepEqual(await linesOf(['one\r\n\ntwo\r', '\nthree']), ['one', '', 'two', 'three']);
  });

  it('joins a line and a character split across chunks', async () => {
    const bytes = Buffer.from('héllo wörld\n', 'utf8');
    const chunks = [...bytes].map((byte) => Uint8Array.of(byte));
    assert.deepEqual(await linesOf(chunks), ['héllo wörld']);
  });

  it('gives nothing for an empty stream', async () => {
    assert.deepEqual(await linesOf([]), []);
  });
});
