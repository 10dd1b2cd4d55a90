/**
 * Waits for `work` to settle, but at most `ms`: closing a browser or a context whose other end
 * is going away may never answer, and shutdown or a caller must not hang on it. A rejection
 * counts as settled (the thing is gone either way).
 */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.catch(() => undefined), late]);
  clearTimeout(timer);
}
