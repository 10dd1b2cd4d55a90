// Preloaded (node --expose-gc --import) into the servers of the memory run only. On SIGUSR2 it
// runs two full garbage collections and writes the memory figures to stderr as one JSON line,
// so the bench can tell a leak (retained heap growing) from V8 merely keeping a larger heap.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stderr.write(`${JSON.stringify({ msg: 'heap after gc', rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })}\n`);
});
