// The guard on its own: the Host verdict it remembers between requests, a second Host header,
// and the Bearer scheme matched in any case without copying the header.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { ApiKeys } from '../../../core/auth/api-keys.js';
import { HttpGuard } from '../../../core/http/http-guard.js';

const KEY = `mgw_${'k'.repeat(43)}`;

function guard(): HttpGuard {
  return new HttpGuard({ allowedHosts: ['gw.example'], allowedOrigins: [] } as never, '127.0.0.1', new ApiKeys([], KEY));
}

/** A request as Node presents it: `headers` keeps the first of repeated headers, `rawHeaders` all. */
const request = (headers: Record<string, string>, rawHeaders = Object.entries(headers).flat()) =>
  ({ headers, rawHeaders, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

describe('HttpGuard', () => {
  it('judges each Host header, whatever came before it', () => {
    const g = guard();
    const verdicts = ['127.0.0.1:9101', '127.0.0.1:9101', 'evil.example', '127.0.0.1:9101', 'GW.Example:80', 'evil.example:9101', 'localhost', '']
      .map((host) => g.check(request({ host, authorization: `Bearer ${KEY}` }), true, true))
      .map((result) => (result.ok ? 'ok' : result.error.code));
    assert.deepEqual(verdicts, ['ok', 'ok', 'HOST_NOT_ALLOWED', 'ok', 'ok', 'HOST_NOT_ALLOWED', 'ok', 'HOST_NOT_ALLOWED']);
    assert.equal(g.check(request({ authorization: `Bearer ${KEY}` }), true, true).ok, false, 'no Host at all');
  });

  it('refuses a second Host header in any case, whichever comes first, on public routes too', () => {
    const g = guard();
    const verdict = (raw: string[], needsKey = true) => {
      const result = g.check(request({ host: raw[1]!, authorization: `Bearer ${KEY}` }, [...raw, 'Authorization', `Bearer ${KEY}`]), needsKey, true);
      return result.ok ? 'ok' : result.error.code;
    };
    assert.equal(verdict(['Host', 'localhost']), 'ok');
    assert.equal(verdict(['Host', 'evil.example', 'host', 'localhost']), 'DUPLICATE_HOST_HEADER');
    assert.equal(verdict(['Host', 'localhost', 'HOST', 'evil.example']), 'DUPLICATE_HOST_HEADER');
    assert.equal(verdict(['host', 'localhost', 'X-Host', 'a', 'Host', 'localhost'], false), 'DUPLICATE_HOST_HEADER');
    assert.equal(verdict(['Host', 'localhost', 'X-Forwarded-Host', 'evil.example', 'Hostname', 'x']), 'ok');
  });

  it('takes the Bearer scheme in any case, and nothing else for it', () => {
    const g = guard();
    const verdict = (authorization: string) => {
      const result = g.check(request({ host: 'localhost', authorization }), true, true);
      return result.ok ? result.principal?.name : result.error.code;
    };
    assert.equal(verdict(`Bearer ${KEY}`), 'owner');
    assert.equal(verdict(`bearer ${KEY}`), 'owner');
    assert.equal(verdict(`BEARER   ${KEY}  `), 'owner');
    assert.equal(verdict(`Basic ${KEY}`), 'UNAUTHORIZED');
    assert.equal(verdict(`Bearer${KEY}`), 'UNAUTHORIZED');
    assert.equal(verdict('Bearer '), 'UNAUTHORIZED');
  });
});
