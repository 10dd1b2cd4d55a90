import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunningCall } from '../../../core/catalog/running-call.js';
import type { ClientLink } from '../../../core/catalog/client-link.js';
import { GatewayError } from '../../../core/contract/errors.js';
import { resourceBlock } from '../../../core/catalog/tool-result.js';
import { createLogger } from '../../../core/lib/logger.js';
import type { TransportKind } from '../../../core/contract/plugin-types.js';

const SAMPLE = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 10 };
const FORM = { message: 'Name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } };

function runningCall(transport: TransportKind, client?: ClientLink): RunningCall {
  const call = new RunningCall({ plugin: 'p', tool: 't', timeoutMs: 60_000, caller: { transport }, client, requestId: client ? 7 : undefined }, createLogger('silent'));
  return call;
}

/** A link that records what it was asked, for the checks that happen before anything is sent. */
function recordingLink(capabilities: Record<string, unknown>): ClientLink & { sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    capabilities: () => capabilities,
    clientName: () => 'recorder',
    createMessage: async (params, options) => {
      sent.push({ params, relatedRequestId: options.relatedRequestId, timeout: options.timeout });
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
    },
    elicitInput: async () => ({ action: 'cancel' }),
    listRoots: async () => ({ roots: [] }),
    log: (params, relatedRequestId) => {
      sent.push({ params, relatedRequestId });
      return true;
    },
  };
}

describe('asking the client from a call', () => {
  for (const transport of ['rest', 'cli'] as const) {
    it(`refuses sample and elicit over ${transport} with CLIENT_CAPABILITY_MISSING`, async () => {
      const call = runningCall(transport);
      await assert.rejects(call.sample(SAMPLE), (err: any) => err.code === 'CLIENT_CAPABILITY_MISSING' && err.message.includes(`came over ${transport}`));
      await assert.rejects(call.elicit(FORM), (err: any) => err.code === 'CLIENT_CAPABILITY_MISSING' && err.details.method === 'elicitation/create');
      call.settle();
    });
  }

  it('sends on the call\'s own request id, with at most the tool\'s time limit', async () => {
    const link = recordingLink({ sampling: {} });
    const call = runningCall('memory', link);
    await call.sample(SAMPLE, { timeoutMs: 5_000 });
    await call.sample(SAMPLE, { timeoutMs: 10 * 60_000 });
    assert.deepEqual(link.sent, [
      { params: SAMPLE, relatedRequestId: 7, timeout: 5_000 },
      { params: SAMPLE, relatedRequestId: 7, timeout: 60_000 },
    ]);
    call.settle();
  });

  it('refuses params that are not valid MCP params before sending (a plugin bug: a plain error)', async () => {
    const link = recordingLink({ sampling: {} });
    const call = runningCall('memory', link);
    await assert.rejects(call.sample({ messages: [] } as never), (err: any) => err instanceof TypeError && /call\.sample/.test(err.message));
    assert.deepEqual(link.sent, []);
    call.settle();
  });

  it('answers with the call\'s own reason once the call was cancelled', async () => {
    const link = recordingLink({ elicitation: {} });
    const call = runningCall('memory', link);
    call.abort(new GatewayError('CANCELLED', 'gone'));
    await assert.rejects(call.elicit(FORM), (err: any) => err.code === 'CANCELLED');
    assert.deepEqual(link.sent, []);
    call.settle();
  });
});

describe('call.logToClient', () => {
  it('relates the message to the call\'s request, with the plugin as default logger', () => {
    const link = recordingLink({});
    const call = runningCall('memory', link);
    assert.equal(call.logToClient('notice', { step: 1 }), true);
    assert.equal(call.logToClient('error', 'x', { logger: 'db' }), true);
    assert.deepEqual(link.sent, [
      { params: { level: 'notice', logger: 'p', data: { step: 1 } }, relatedRequestId: 7 },
      { params: { level: 'error', logger: 'db', data: 'x' }, relatedRequestId: 7 },
    ]);
    call.settle();
  });

  it('returns false without a session (REST, CLI) and refuses bad levels and non-JSON data', () => {
    const call = runningCall('rest');
    assert.equal(call.logToClient('info', 'to the gateway log'), false);
    for (const [level, data] of [['loud', 'x'], ['info', undefined], ['info', 10n]] as const) {
      assert.throws(() => call.logToClient(level as never, data), (err: any) => err.code === 'NOTIFICATION_INVALID');
    }
    call.settle();
  });
});

describe('resourceBlock', () => {
  it('embeds text or binary contents (bytes become base64)', () => {
    assert.deepEqual(resourceBlock({ uri: 'a://t', mimeType: 'text/plain', text: 'hi' }), { type: 'resource', resource: { uri: 'a://t', mimeType: 'text/plain', text: 'hi' } });
    assert.deepEqual(resourceBlock({ uri: 'a://b', blob: new Uint8Array([1, 2, 3]) }), { type: 'resource', resource: { uri: 'a://b', blob: 'AQID' } });
  });
});
