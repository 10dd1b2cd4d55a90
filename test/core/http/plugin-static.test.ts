import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { FIXTURE_REGISTRY, httpRequest, startGateway, tempDir, TESTS } from '../../helpers.js';

const BOARD_REGISTRY = join(TESTS, 'fixtures', 'routes-plugin', 'registry');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** A static folder with files, a folder, a dotfile and symlinks inside and out; a secret beside it. */
function site(): string {
  const dir = tempDir('mcpgw-static-');
  const root = join(dir, 'site');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(root, 'index.html'), '<h1>board</h1>');
  writeFileSync(join(root, 'app.js'), 'console.info("hi");');
  writeFileSync(join(root, 'logo.png'), PNG);
  writeFileSync(join(root, 'data.unknownext'), 'raw');
  writeFileSync(join(root, '.env'), 'TOKEN=secret');
  writeFileSync(join(root, 'sub', 'index.html'), '<p>sub</p>');
  writeFileSync(join(dir, 'secret.txt'), 'the secret');
  writeFileSync(join(dir, 'outside', 'page.html'), 'outside');
  symlinkSync(join(root, 'app.js'), join(root, 'alias.js'));
  symlinkSync(join(dir, 'secret.txt'), join(root, 'escape.txt'));
  symlinkSync(join(dir, 'outside'), join(root, 'escape-dir'));
  return root;
}

describe('plugin static files (listening server)', async () => {
  const staticDir = site();
  const gateway = await startGateway({
    registries: [FIXTURE_REGISTRY, BOARD_REGISTRY],
    plugins: { board: { config: { staticDir } } },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { rateLimit: { max: 0 } } },
  });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  const get = (url: string, headers: Record<string, string> = {}) => httpRequest(port, { method: 'GET', url, headers });
  const base = '/plugins/board/static';

  const served: Array<[string, string, string, string | Buffer]> = [
    ['the index for the folder', `${base}/`, 'text/html; charset=utf-8', '<h1>board</h1>'],
    ['a script', `${base}/app.js`, 'text/javascript; charset=utf-8', 'console.info("hi");'],
    ['an image', `${base}/logo.png`, 'image/png', PNG],
    ['an unknown kind as bytes', `${base}/data.unknownext`, 'application/octet-stream', 'raw'],
    ["a sub-folder's index", `${base}/sub/`, 'text/html; charset=utf-8', '<p>sub</p>'],
    ['a symlink that stays inside', `${base}/alias.js`, 'text/javascript; charset=utf-8', 'console.info("hi");'],
    ['a percent-encoded name', `${base}/%61pp.js`, 'text/javascript; charset=utf-8', 'console.info("hi");'],
  ];
  for (const [label, url, type, body] of served) {
    it(`serves ${label} with its media type and caching headers`, async () => {
      const res = await get(url);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], type);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(String(res.headers.etag), /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
      assert.ok(res.headers['last-modified']);
      if (Buffer.isBuffer(body)) assert.equal(Number(res.headers['content-length']), body.length);
      else assert.equal(res.body, body);
    });
  }

  it('answers 304 to a request that has the current ETag', async () => {
    const first = await get(`${base}/app.js`);
    const again = await get(`${base}/app.js`, { 'if-none-match': String(first.headers.etag) });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await httpRequest(port, { method: 'HEAD', url: `${base}/app.js` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-length'], String('console.info("hi");'.length));
    assert.equal(res.body, '');
  });

  it('redirects a folder URL without its slash, so relative links resolve', async () => {
    for (const [url, location] of [[base, `${base}/`], [`${base}/sub`, `${base}/sub/`]]) {
      const res = await get(url!);
      assert.equal(res.statusCode, 301, url);
      assert.equal(res.headers.location, location);
    }
  });

  const refused: Array<[string, string, number, string]> = [
    ['..', `${base}/../../../../etc/passwd`, 403, 'STATIC_PATH_REFUSED'],
    ['.. after a folder', `${base}/sub/../../secret.txt`, 403, 'STATIC_PATH_REFUSED'],
    ['%2e%2e', `${base}/%2e%2e/secret.txt`, 403, 'STATIC_PATH_REFUSED'],
    ['%2E%2E in capitals', `${base}/%2E%2E/%2E%2E/etc/passwd`, 403, 'STATIC_PATH_REFUSED'],
    ['an encoded slash', `${base}/..%2fsecret.txt`, 403, 'STATIC_PATH_REFUSED'],
    ['an encoded backslash', `${base}/..%5csecret.txt`, 403, 'STATIC_PATH_REFUSED'],
    ['an encoded NUL', `${base}/app.js%00.png`, 403, 'STATIC_PATH_REFUSED'],
    ['a symlink to a file outside', `${base}/escape.txt`, 403, 'STATIC_PATH_REFUSED'],
    ['a symlink to a folder outside', `${base}/escape-dir/page.html`, 403, 'STATIC_PATH_REFUSED'],
    ['a double-encoded ..', `${base}/%252e%252e/secret.txt`, 404, 'NOT_FOUND'],
    ['a dotfile', `${base}/.env`, 404, 'NOT_FOUND'],
    ['a missing file', `${base}/nope.html`, 404, 'NOT_FOUND'],
    ['a file below a file', `${base}/app.js/x`, 404, 'NOT_FOUND'],
    // fastify's router refuses it before the route runs.
    ['broken percent-encoding', `${base}/%zz`, 404, 'NOT_FOUND'],
  ];
  for (const [label, url, status, code] of refused) {
    it(`${status} ${code} for ${label}`, async () => {
      const res = await get(url);
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json().error.code, code);
      assert.ok(!res.body.includes('secret'), 'nothing of the file outside is sent');
    });
  }
});

describe('plugin static files behind keys', async () => {
  const route = createApiKey();
  const tools = createApiKey();
  const gateway = await startGateway({
    auth: 'key',
    apiKeys: [
      { name: 'pages', hash: route.hash, scopes: ['route:board'] },
      { name: 'tools', hash: tools.hash, scopes: ['echo'] },
    ],
    registries: [FIXTURE_REGISTRY, BOARD_REGISTRY],
    plugins: { board: {} },
  });
  const app = await createHttpApp(gateway);
  after(() => app.close());
  const get = (headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/plugins/board/static/', headers });

  it('serves the page to a key with the route scope', async () => {
    const res = await get({ 'x-api-key': route.key });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<title>board<\/title>/);
  });

  const refusals: Array<[string, Record<string, string>, number, string]> = [
    ['no key', {}, 401, 'UNAUTHORIZED'],
    ['a key without the route scope', { 'x-api-key': tools.key }, 403, 'FORBIDDEN'],
    ['a foreign Origin', { 'x-api-key': route.key, origin: 'http://evil.example' }, 403, 'HOST_NOT_ALLOWED'],
  ];
  for (const [label, headers, status, code] of refusals) {
    it(`${status} ${code} for ${label}`, async () => {
      const res = await get(headers);
      assert.equal(res.statusCode, status);
      assert.equal(res.json().error.code, code);
    });
  }
});
