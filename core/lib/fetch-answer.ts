// Reading what a service answered to fetch, for plugins that call out: the body within a cap,
// and the socket error fetch hides behind "fetch failed".

/**
 * The body as text, or null when it holds more than `cap` bytes: the stream is cancelled
 * there (a Content-Length above the cap is refused before reading anything), so a service that
 * sends without end cannot fill the gateway's memory. Decoded as `response.text()` does.
 */
export async function readCappedText(response: Response, cap: number): Promise<string | null> {
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

/** Why fetch failed, in the socket's words (`ECONNREFUSED`, `ENOTFOUND`...), which fetch hides in `cause`. */
export function fetchFailureReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return (err as Error)?.message ?? String(err);
}
