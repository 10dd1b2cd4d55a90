import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError, ResourceNotFoundError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { GatewayError } from '../../../core/contract/errors.js';
import { callFailure } from '../../../plugins/upstream/call-failure.js';
import type { RaiseError } from '../../../plugins/upstream/declaration.js';
import type { UpstreamServer } from '../../../plugins/upstream/upstream-server.js';

/** What callFailure reads of a server, and what it tells it (suspect: a request could not reach it). */
function server() {
  const suspected: string[] = [];
  const fake = { name: 'remote', tooLarge: () => undefined, status: () => ({ lastError: undefined }), suspect: (reason: string) => void suspected.push(reason) };
  return { server: fake as unknown as UpstreamServer, suspected };
}
const raise: RaiseError = (code, message, details) => new GatewayError(code, message, { details });
const codeOf = (err: unknown) => (callFailure(err, server().server, raise) as GatewayError).code;

/** What SDK v2 throws for a request to an upstream server, as the codes callers see. */
describe('upstream: what SDK v2 throws, as codes', () => {
  it("a server's resource-not-found, which SDK v2 rebuilds as ResourceNotFoundError (-32602), is RESOURCE_NOT_FOUND", () => {
    assert.equal(codeOf(new ResourceNotFoundError('fixture://gone')), 'RESOURCE_NOT_FOUND');
    assert.equal(codeOf(ProtocolError.fromError(-32002, 'Resource not found', { uri: 'fixture://gone' })), 'RESOURCE_NOT_FOUND');
  });

  it('invalid params are INVALID_ARGUMENTS, any other answer UPSTREAM_ERROR with its code', () => {
    assert.equal(codeOf(new ProtocolError(-32602, 'bad arguments')), 'INVALID_ARGUMENTS');
    const other = callFailure(new ProtocolError(-32000, 'the server refuses this'), server().server, raise) as GatewayError;
    assert.deepEqual([other.code, (other.details as { rpcCode: number }).rpcCode], ['UPSTREAM_ERROR', -32000]);
  });

  it("the SDK's own failures: a timeout is BREAKER_TIMEOUT, a closed connection UPSTREAM_UNAVAILABLE", () => {
    assert.equal(codeOf(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out')), 'BREAKER_TIMEOUT');
    assert.equal(codeOf(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')), 'UPSTREAM_UNAVAILABLE');
  });

  it('an HTTP server failing (5xx) is UPSTREAM_UNAVAILABLE, and the server is suspected', () => {
    const { server: failing, suspected } = server();
    const failure = callFailure(new SdkHttpError(SdkErrorCode.SendFailed, 'Error POSTing to endpoint', { status: 503 }), failing, raise) as GatewayError;
    assert.equal(failure.code, 'UPSTREAM_UNAVAILABLE');
    assert.equal(suspected.length, 1);
  });
});
