import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { after, describe, it } from 'node:test';
import { boundedFetch, EventCounter } from '../../../plugins/upstream/bounded-fetch.js';
import { LineReader } from '../../../plugins/upstream/line-reader.js';
import { isMessageTooLarge, type MessageTooLargeError } from '../../../plugins/upstream/message-too-large.js';

const KiB = 1024;
const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `chunks` to a fresh counter; the count after each, Infinity once past the bound. */
function counts(chunks: string[], limit: number): number[] {
  const counter = new EventCounter();
  return chunks.map((chunk) => counter.add(bytes(chunk), limit)).map((n) => (n > limit ? Infinity : n));
}

describe('upstream: the SSE event counter', () => {
  const table: Array<[string, string[], number, number[]]> = [
    ['an event ends at an empty line (LF)', ['data: abc\n\n', 'data: de\n'], 100, [0, 9]],
    ['CRLF line ends', ['data: abc\r\n\r\n', 'data: de\r\n'], 100, [1, 11]],
    ['CR line ends', ['data: abc\r\r', 'data: de\r'], 100, [0, 9]],
    ['a CRLF split across chunks ends one line, not two', ['data: abc\r', '\ndata: d\r', '\n\r\n'], 100, [10, 19, 1]],
    ['many lines of one event count together', ['data: aaaa\n', 'data: aaaa\n', 'data: aaaa\n'], 30, [11, 22, Infinity]],
    ['one line with no end passes the bound', ['data: ', 'x'.repeat(50)], 40, [6, Infinity]],
    ['small events without end stay under the bound', Array.from({ length: 50 }, () => 'data: 0123456789\n\n'), 20, Array.from({ length: 50 }, () => 0)],
  ];
  for (const [name, chunks, limit, expected] of table) {
    it(name, () => assert.deepEqual(counts(chunks, limit), expected));
  }
});

describe('upstream: the stdio line reader', () => {
  it('joins a line across chunks and splits several in one', () => {
    const reader = new LineReader(100);
    assert.deepEqual(reader.push(Buffer.from('{"a":')).lines, []);
    const { lines, tooLarge } = reader.push(Buffer.from('1}\n{"b":2}\n{"c"'));
    assert.deepEqual(lines.map(String), ['{"a":1}', '{"b":2}']);
    assert.equal(tooLarge, undefined);
  });

  it('a line over the bound is reported once it passes it, after the lines before it', () => {
    const reader = new LineReader(10);
    const { lines, tooLarge } = reader.push(Buffer.from('{"a":1}\n0123456789A'));
    assert.deepEqual(lines.map(String), ['{"a":1}']);
    assert.ok(isMessageTooLarge(tooLarge));
    assert.equal(tooLarge.limit, 10);
  });
});

describe('upstream: a fetch bounded per message, against a real server', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/events') {
      // 200 events of 10 KiB: 2 MB in all, each far under the bound.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 200; i += 1) res.write(`data: ${'e'.repeat(10 * KiB)}\r\n\r\n`);
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ result: 'x'.repeat(req.url === '/big' ? 200 * KiB : 10 * KiB) }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  after(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const seen: Array<{ error: MessageTooLargeError; ids: ReadonlyArray<string | number> }> = [];
  const bounded = boundedFetch(64 * KiB, (error, ids) => seen.push({ error, ids }));

  it('a stream of many small events is read whole, though it is larger than the bound', async () => {
    const text = await (await bounded(`${base}/events`)).text();
    assert.equal(text.length, 200 * (10 * KiB + 10));
    assert.equal(seen.length, 0);
  });

  it('a JSON body under the bound is read whole', async () => {
    const body = (await (await bounded(`${base}/small`)).json()) as { result: string };
    assert.equal(body.result.length, 10 * KiB);
  });

  it('a JSON body over it fails the read, and names the requests of the POST it answered', async () => {
    const post = JSON.stringify([
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} },
      { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
      { jsonrpc: '2.0', id: 'eight', method: 'ping' },
    ]);
    const response = await bounded(`${base}/big`, { method: 'POST', body: post });
    assert.equal(response.status, 200);
    await assert.rejects(response.json(), (err: unknown) => isMessageTooLarge(err) || isMessageTooLarge((err as Error).cause));
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0]!.ids, [7, 'eight']);
    assert.match(seen[0]!.error.message, /a response body passed maxMessageBytes \(64 KiB\)/);
  });
});
