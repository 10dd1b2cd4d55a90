// Writes the definition budgets test/core/tool-budgets.test.ts holds every tool to:
// plugins/<plugin>/tool-budgets.json, and core/catalog/tool-budgets.json for the gateway's own
// tools, each `{"<tool>": <bytes>}` sorted by name. A budget is the size of the tool's tools/list
// entry (JSON bytes, lean form) rounded up to the next multiple of 50.
//
//   node scripts/tool-budgets.js           budgets for tools that have none; those of tools gone are dropped
//   node scripts/tool-budgets.js --write   every budget set again from today's sizes
//
// It boots the gateway from source (through tsx) with every shipped plugin, as the test does.
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const { values } = parseArgs({ options: { write: { type: 'boolean' } } });
register();
const { budgetFile, budgetFor, measureTools, readBudgets, writeBudgets } = await import('../test/support/tool-budgets.ts');

const sizes = await measureTools();
for (const [plugin, tools] of sizes) {
  const written = readBudgets(plugin);
  const budgets = {};
  const changed = [];
  for (const [name, bytes] of tools) {
    const kept = values.write ? undefined : written[name];
    budgets[name] = kept ?? budgetFor(bytes);
    if (budgets[name] !== written[name]) changed.push(`${name} ${written[name] ?? '(none)'} → ${budgets[name]}`);
  }
  const dropped = Object.keys(written).filter((name) => !tools.has(name));
  writeBudgets(plugin, budgets);
  const what = [...changed, ...dropped.map((name) => `${name} dropped (no such tool)`)];
  process.stdout.write(`${relative(process.cwd(), budgetFile(plugin))}: ${what.length === 0 ? 'unchanged' : `\n  ${what.join('\n  ')}`}\n`);
}
