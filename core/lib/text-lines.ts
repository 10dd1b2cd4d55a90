import { StringDecoder } from 'node:string_decoder';

/**
 * The lines of a byte or text stream, split at "\n" only (a "\r" before it dropped), as JSON
 * Lines and JSON-RPC over stdio are framed. Not node:readline: since Node 24 it also ends a
 * line at U+2028 and U+2029, which a JSON string may hold raw, so a valid message would
 * arrive cut in two. The last line needs no "\n".
 */
export async function* textLines(input: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    rest += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let end: number;
    while ((end = rest.indexOf('\n')) !== -1) {
      yield withoutCarriageReturn(rest.slice(0, end));
      rest = rest.slice(end + 1);
    }
  }
  rest += decoder.end();
  if (rest !== '') yield withoutCarriageReturn(rest);
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
