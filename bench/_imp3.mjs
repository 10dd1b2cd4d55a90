const m = process.argv.slice(2);
let t = performance.now(); const out = {};
for (const x of m) { await import(x); const n = performance.now(); out[x.split('/').slice(-2).join('/')] = Math.round(n - t); t = n; }
console.log(JSON.stringify(out));
