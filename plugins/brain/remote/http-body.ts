// Reading an answer safely: a capped body, the remote's own message out of either protocol's
// error envelope, and the socket error fetch hides in `cause`.

/**
 * The body as text, or null when it holds more than `cap` bytes: the stream is cancelled
 * there (a Content-Length above the cap is refused before reading anything), so a remote that
 * sends without end cannot fill the gateway's memory.
 */
export async function readCapped(response: Response, cap: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > cap) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  // As response.text() decodes: UTF-8, a byte-order mark dropped.
  return new TextDecoder().decode(Buffer.concat(chunks, total));
}

/**
 * The remote's message and code: a gateway's `{success: false, error: {code, message}}`,
 * OpenBrain's `{error: "..."}` or `{message}` (Laravel), or else the text itself (an HTML
 * page from a proxy).
 */
export function remoteMessage(body: unknown, text: string): { message: string; code?: string } {
  if (body && typeof body === 'object') {
    const { error, message, detail } = body as { error?: unknown; message?: unknown; detail?: unknown };
    const inner = error && typeof error === 'object' ? (error as { code?: unknown; message?: unknown }) : undefined;
    const code = typeof inner?.code === 'string' ? inner.code : undefined;
    for (const candidate of [inner?.message, error, message, detail]) {
      if (typeof candidate === 'string' && candidate.trim()) return code ? { message: candidate, code } : { message: candidate };
    }
    if (code) return { message: code, code };
  }
  return { message: text };
}

/** `ECONNREFUSED`, `ENOTFOUND`...: fetch hides the socket's error in `cause`. */
export function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return (err as Error)?.message ?? String(err);
}
