// The site the webview section browses: two small pages on 127.0.0.1, each linking to the
// other, served from the bench process. `no-store` makes every navigation a real HTTP load.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The link on page A that the round trip clicks, by the ref the snapshot gives it. */
export const LINK_TO_B = 'Go to page B';

export interface TwoPageSite {
  readonly a: string;
  readonly b: string;
  close(): Promise<void>;
}

/** A page of the size an agent meets on a simple site: navigation, a heading, text, a form, a list, links. */
function page(name: 'A' | 'B'): string {
  const other = name === 'A' ? 'B' : 'A';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Page ${name}</title></head>
<body>
<header><nav aria-label="Site"><a href="/a">Page A</a> · <a href="/b">Page B</a></nav></header>
<main>
<h1>Page ${name}</h1>
<p>One of two small pages for the webview benchmark: a heading, some text, a form, a list and a link to the other page.</p>
<form action="/${name.toLowerCase()}"><label>Search <input name="q"></label>
<select name="lang" aria-label="Language"><option>en</option><option>fr</option></select>
<button type="button">Go</button></form>
<ul><li>First item</li><li>Second item</li><li>Third item</li></ul>
<p><a href="/${other.toLowerCase()}">Go to page ${other}</a></p>
</main>
</body>
</html>
`;
}

export async function startTwoPageSite(): Promise<TwoPageSite> {
  const pages = new Map([
    ['/a', page('A')],
    ['/b', page('B')],
  ]);
  const server = createServer((req, res) => {
    const body = pages.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    a: `${base}/a`,
    b: `${base}/b`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
