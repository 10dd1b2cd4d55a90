// The remote's own message out of either protocol's error envelope (core's readCappedText and
// fetchFailureReason read the body and the failure).

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
