// onSubscribe/onUnsubscribe on resource entries: the entry hears of a URI's first subscriber
// and of its last leaving, whichever way it leaves, through real SDK clients.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { memoryClient, startGateway, WITH_RELAY } from '../../helpers.js';

/** What the relay fixture's hooks were told so far, in order (relay_hooks). */
async function hooks(client: Client): Promise<string[]> {
  return ((await client.callTool({ name: 'relay_hooks', arguments: {} })).structuredContent as { calls: string[] }).calls;
}

/** The hooks' calls once there are `count` of them: a closing session tells its entries after it is gone. */
async function hooksOnce(client: Client, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const calls = await hooks(client);
    if (calls.length >= count || Date.now() > deadline) return calls;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function relay(): Promise<{ gateway: Gateway; a: Client; b: Client }> {
  const gateway = await startGateway(WITH_RELAY);
  return { gateway, a: await memoryClient(gateway, 'a'), b: await memoryClient(gateway, 'b') };
}

describe('resource subscription hooks', () => {
  it('tell the entry of the first subscriber of a URI and of the last unsubscribing, once each', async () => {
    const { a, b } = await relay();
    await a.subscribeResource({ uri: 'relay://status' });
    await b.subscribeResource({ uri: 'relay://status' });
    await a.subscribeResource({ uri: 'relay://status' });
    assert.deepEqual(await hooks(a), ['subscribe relay://status']);
    await a.unsubscribeResource({ uri: 'relay://status' });
    await a.unsubscribeResource({ uri: 'relay://status' });
    assert.deepEqual(await hooks(a), ['subscribe relay://status'], 'b still holds it; a second unsubscribe changes nothing');
    await b.unsubscribeResource({ uri: 'relay://status' });
    assert.deepEqual(await hooks(a), ['subscribe relay://status', 'unsubscribe relay://status']);
  });

  it('work for the URIs a template matches, each apart, and hear of a session that closed', async () => {
    const { a, b } = await relay();
    await a.subscribeResource({ uri: 'relay://feeds/news' });
    await a.subscribeResource({ uri: 'relay://feeds/sport' });
    assert.deepEqual(await hooks(b), ['subscribe relay://feeds/news', 'subscribe relay://feeds/sport']);
    await a.close();
    const calls = await hooksOnce(b, 4);
    assert.deepEqual(calls.slice(2).sort(), ['unsubscribe relay://feeds/news', 'unsubscribe relay://feeds/sport']);
  });

  it('say nothing when a session unsubscribes from a URI it never held', async () => {
    const { a } = await relay();
    assert.deepEqual(await a.unsubscribeResource({ uri: 'relay://feeds/news' }), {});
    assert.deepEqual(await hooks(a), []);
  });

  it('refuse the subscription with the code onSubscribe throws; the session holds nothing', async () => {
    const { gateway, a } = await relay();
    await assert.rejects(a.subscribeResource({ uri: 'relay://feeds/refused' }), (err: any) => {
      assert.equal(err.data.code, 'RELAY_UPSTREAM_REFUSED');
      assert.match(err.message, /The upstream refused the subscription to relay:\/\/feeds\/refused\.$/);
      return true;
    });
    assert.equal(gateway.subscriptions.count('relay://feeds/refused'), 0);
    // Nobody holds it, so the next subscriber is again the first; nothing was held to unsubscribe.
    await assert.rejects(a.subscribeResource({ uri: 'relay://feeds/refused' }));
    assert.deepEqual(await hooks(a), ['subscribe relay://feeds/refused', 'subscribe relay://feeds/refused']);
  });

  it('answer INTERNAL_ERROR, without its message, when onSubscribe fails unexpectedly or with an undeclared code', async () => {
    const { gateway, a } = await relay();
    for (const uri of ['relay://feeds/broken', 'relay://feeds/undeclared']) {
      await assert.rejects(a.subscribeResource({ uri }), (err: any) => {
        assert.equal(err.data.code, 'INTERNAL_ERROR', uri);
        assert.doesNotMatch(err.message, /secret internal detail/);
        return true;
      });
      assert.equal(gateway.subscriptions.count(uri), 0);
    }
  });

  it('run onSubscribe once for sessions that subscribe while it runs', async () => {
    const { gateway, a, b } = await relay();
    await Promise.all([a.subscribeResource({ uri: 'relay://feeds/slow' }), b.subscribeResource({ uri: 'relay://feeds/slow' })]);
    assert.equal(gateway.subscriptions.count('relay://feeds/slow'), 2);
    assert.deepEqual(await hooks(a), ['subscribe relay://feeds/slow']);
  });

  it('leave no subscription behind a session that closed while onSubscribe ran, and tell the entry', async () => {
    const { gateway, a, b } = await relay();
    const subscribing = a.subscribeResource({ uri: 'relay://feeds/slow' }).catch(() => 'closed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await a.close();
    assert.equal(await subscribing, 'closed');
    assert.deepEqual(await hooksOnce(b, 2), ['subscribe relay://feeds/slow', 'unsubscribe relay://feeds/slow']);
    assert.equal(gateway.subscriptions.count('relay://feeds/slow'), 0);
  });

  it('keep the subscription of a session that waited on the same onSubscribe as one that closed', async () => {
    const { gateway, a, b } = await relay();
    const leaving = a.subscribeResource({ uri: 'relay://feeds/slow' }).catch(() => 'closed');
    const staying = b.subscribeResource({ uri: 'relay://feeds/slow' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await a.close();
    assert.deepEqual(await staying, {});
    assert.equal(await leaving, 'closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(gateway.subscriptions.count('relay://feeds/slow'), 1);
    assert.deepEqual(await hooks(b), ['subscribe relay://feeds/slow'], 'b still holds it: no unsubscribe');
  });
});
