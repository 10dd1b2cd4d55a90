const m = ['better-sqlite3', 'kysely', 'sqlite-vec', './../dist/core/storage/search-index.js', './../dist/core/storage/store-dialects.js', './../dist/core/storage/shared-store.js'];
let t = performance.now(); const out = {};
for (const x of m) { await import(x); const n = performance.now(); out[x.split('/').pop()] = Math.round(n - t); t = n; }
console.log(JSON.stringify(out));
