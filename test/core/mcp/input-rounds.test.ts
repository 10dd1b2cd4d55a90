import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect as connectSocket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { listenHttp } from '../../../core/http/http-server.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { CONFORMANCE_REGISTRY, resultJson, startGateway } from '../../helpers.js';
import { conformanceWithTwoKeys, post2026 } from '../../support/mcp-2026.js';

const MODERN = '2026-07-28';
const ASKS_ALL = { elicitation: {}, sampling: {}, roots: {} };
const meta = (capabilities: Record<string, unknown> = ASKS_ALL) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
});

/** The answers a person and a model give, by the form field or question asked. */
const FIELD_ANSWERS: Record<string, unknown> = { name: 'Ada', color: 'green', ok: true, context: 'tests' };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
const ROOTS = { roots: [{ uri: 'file:///home/ada/project', name: 'project' }] };

/** SDK v2's client, declaring elicitation, sampling and roots, answering each question and recording its method. */
function answeringClient(versionNegotiation: ClientOptions['versionNegotiation']): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const client = new Client({ name: 'answering-client', version: '1.0.0' }, { versionNegotiation, capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push('elicitation/create');
    const field = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;
    return { action: 'accept', content: { [field]: FIELD_ANSWERS[field] } } as never;
  });
  client.setRequestHandler('sampling/createMessage', () => {
    asked.push('sampling/createMessage');
    return SAMPLED as never;
  });
  client.setRequestHandler('roots/list', () => {
    asked.push('roots/list');
    return ROOTS;
  });
  after(() => client.close());
  return { client, asked };
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

const raw = post2026;

/**
 * Questions a call asks its client (call.elicit, call.sample, call.listRoots): a 2026-07-28
 * client gets them as an InputRequiredResult and retries with the answers and the signed
 * requestState; a 2025 client is asked during the call. The conformance plugin's tools ask.
 */
describe('questions to the client in both eras', async () => {
  const gateway = await startGateway({ registries: [CONFORMANCE_REGISTRY], plugins: { conformance: {} } });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => Promise.all([http.close(), tcp.close()]));
  const base = `http://127.0.0.1:${http.address.port}`;

  const overHttp = async (versionNegotiation: ClientOptions['versionNegotiation']) => {
    const answering = answeringClient(versionNegotiation);
    await answering.client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    return answering;
  };

  const overTcp = async () => {
    const address = tcp.address as { host: string; port: number };
    const socket = connectSocket(address.port, address.host);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.on('error', () => {});
    const answering = answeringClient({ mode: { pin: MODERN } });
    const transport = new StdioServerTransport(socket, socket);
    const close = transport.close.bind(transport);
    transport.close = async () => {
      socket.end();
      await close();
    };
    await answering.client.connect(transport);
    return answering;
  };

  const rounds = async ({ client, asked }: { client: Client; asked: string[] }) => {
    assert.equal(textOf(await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} })), 'Ada likes green.');
    assert.deepEqual(asked.splice(0), ['elicitation/create', 'elicitation/create']);
    const together = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
    assert.equal(textOf(together), 'name=Ada, greeting=Paris, roots=file:///home/ada/project');
    assert.deepEqual(asked.splice(0).sort(), ['elicitation/create', 'roots/list', 'sampling/createMessage']);
    const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt' });
    assert.equal((prompt.messages[0]!.content as { text: string }).text, 'Use this context: tests');
  };

  it('http: a client pinned to 2026-07-28 answers every round, and the call, the prompt complete', async () => {
    const answering = await overHttp({ mode: { pin: MODERN } });
    assert.equal(answering.client.getNegotiatedProtocolVersion(), MODERN);
    await rounds(answering);
  });

  it('tcp: a 2026-07-28 client on a stream answers every round the same way', async () => {
    const answering = await overTcp();
    assert.equal(answering.client.getNegotiatedProtocolVersion(), MODERN);
    await rounds(answering);
  });

  it('http: a 2025 session is asked during the call, by the same handlers, with the same answers', async () => {
    const answering = await overHttp({ mode: 'legacy' });
    assert.equal(answering.client.getNegotiatedProtocolVersion(), '2025-11-25');
    await rounds(answering);
  });

  it('round one answers the questions under their keys, with a requestState; the audit records the round', async () => {
    const { body } = await raw(base, 'tools/call', { _meta: meta(), name: 'test_input_required_result_multiple_inputs', arguments: {} });
    assert.equal(body.result.resultType, 'input_required');
    assert.deepEqual(Object.keys(body.result.inputRequests).sort(), ['client_roots', 'greeting', 'user_name']);
    assert.equal(body.result.inputRequests.greeting.method, 'sampling/createMessage');
    assert.match(body.result.requestState, /^v1\./);
    gateway.audit!.flush();
    const row = gateway.db.prepare("SELECT outcome FROM core_audit WHERE tool = 'test_input_required_result_multiple_inputs' ORDER BY id DESC LIMIT 1").get() as { outcome: string };
    assert.equal(row.outcome, 'INPUT_REQUIRED');
  });

  it('asks again what a retry left unanswered, and keeps what an earlier round answered', async () => {
    const name = 'test_input_required_result_multi_round';
    const first = (await raw(base, 'tools/call', { _meta: meta(), name, arguments: {} })).body.result;
    const step1 = { action: 'accept', content: { name: 'Ada' } };
    const second = (await raw(base, 'tools/call', { _meta: meta(), name, arguments: {}, inputResponses: { step1 }, requestState: first.requestState })).body.result;
    assert.deepEqual(Object.keys(second.inputRequests), ['step2']);
    // A retry with a wrong key gets the question again, not an error.
    const again = (await raw(base, 'tools/call', { _meta: meta(), name, arguments: {}, inputResponses: { wrong: step1 }, requestState: second.requestState })).body.result;
    assert.deepEqual(Object.keys(again.inputRequests), ['step2']);
    // step1 comes from the state: a retry cannot change it.
    const changed = { step1: { action: 'accept', content: { name: 'Eve' } }, step2: { action: 'accept', content: { color: 'red' } } };
    const done = (await raw(base, 'tools/call', { _meta: meta(), name, arguments: {}, inputResponses: changed, requestState: second.requestState })).body.result;
    assert.equal(textOf(done), 'Ada likes red.');
  });

  it('refuses a tampered, an expired, and a borrowed requestState, and runs nothing', async () => {
    const name = 'test_input_required_result_request_state';
    const { requestState } = (await raw(base, 'tools/call', { _meta: meta(), name, arguments: {} })).body.result;
    const confirm = { confirm: { action: 'accept', content: { ok: true } } };
    const retry = (state: string, tool = name) => raw(base, 'tools/call', { _meta: meta(), name: tool, arguments: {}, inputResponses: confirm, requestState: state });

    const tampered = await retry(`${requestState}x`);
    assert.equal(tampered.body.error.code, -32602);
    assert.match(tampered.body.error.message, /Invalid or expired requestState/);

    // Minted with the gateway's own key, but already past its time.
    const key = readFileSync(join(gateway.config.dataDir, 'request-state.key'), 'utf8').trim();
    const expired = await createRequestStateCodec({ key, ttlSeconds: -60 }).mint({ call: 'x', answers: {} });
    assert.match((await retry(expired)).body.error.message, /Invalid or expired requestState/);

    // A state of this tool's call, brought to another tool.
    const borrowed = await retry(requestState, 'test_input_required_result_tampered_state');
    assert.equal(borrowed.body.error.code, -32602);
    assert.equal(borrowed.body.error.data.code, 'REQUEST_STATE_INVALID');
    // None of the refused retries reached a handler: the audit has round one only.
    gateway.audit!.flush();
    const rows = gateway.db.prepare('SELECT tool, outcome FROM core_audit WHERE tool IN (?, ?)').all(name, 'test_input_required_result_tampered_state');
    assert.deepEqual(rows, [{ tool: name, outcome: 'INPUT_REQUIRED' }]);
    assert.equal(textOf((await retry(requestState)).body.result), 'state-ok: confirmed=true');
  });

  it('answers -32021 naming the capability a call needs and the request does not declare, with HTTP 400', async () => {
    const { status, body } = await raw(base, 'tools/call', { _meta: meta({}), name: 'test_missing_capability', arguments: {} });
    assert.equal(status, 400);
    assert.equal(body.error.code, -32021);
    assert.deepEqual(body.error.data.requiredCapabilities, { sampling: {} });
    // A prompt that asks gets the same.
    const prompt = await raw(base, 'prompts/get', { _meta: meta({}), name: 'test_input_required_result_prompt' });
    assert.equal(prompt.body.error.code, -32021);
    assert.deepEqual(prompt.body.error.data.requiredCapabilities, { elicitation: {} });
  });

  it('fails the call with CLIENT_REQUEST_FAILED when an answer breaks the form or is not a result', async () => {
    const call = (answer: unknown) =>
      raw(base, 'tools/call', { _meta: meta(), name: 'test_input_required_result_request_state', arguments: {}, inputResponses: { confirm: answer } });
    const broken = (await call({ action: 'accept', content: { ok: 'yes' } })).body.result;
    assert.equal(broken.isError, true);
    assert.equal(resultJson(broken).code, 'CLIENT_REQUEST_FAILED');
    assert.match(resultJson(broken).message, /does not match the requested form/);
    const nonsense = (await call({ action: 'maybe' })).body.result;
    assert.equal(resultJson(nonsense).code, 'CLIENT_REQUEST_FAILED');
  });
});

describe('a requestState belongs to the key it was minted for', async () => {
  const { base, first, second } = await conformanceWithTwoKeys();

  it("refuses another key's state with REQUEST_STATE_INVALID", async () => {
    const name = 'test_input_required_result_request_state';
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    const { requestState } = (await raw(base, 'tools/call', { _meta: meta(), name, arguments: {} }, as(first))).body.result;
    const retry = { _meta: meta(), name, arguments: {}, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState };
    const stolen = await raw(base, 'tools/call', retry, as(second));
    assert.equal(stolen.body.error.data.code, 'REQUEST_STATE_INVALID');
    assert.equal(textOf((await raw(base, 'tools/call', retry, as(first))).body.result), 'state-ok: confirmed=true');
  });
});
