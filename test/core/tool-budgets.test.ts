import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers.js';
import { budgetFile, BUDGET_STEP, budgetFor, measureTools, readBudgets, UPDATE_COMMAND } from '../support/tool-budgets.js';

/**
 * Every tool of core and of every shipped plugin stays within the budget written beside it
 * (plugins/<plugin>/tool-budgets.json, core/catalog/tool-budgets.json): the bytes of its
 * tools/list entry, which every client pays for in context before its first call. A tool that
 * grows past it, or has none, fails here with its size, its budget and the command that
 * writes new ones (docs/plugins/tools.md, "What a tool costs").
 */
describe('tool definition budgets', async () => {
  const sizes = await measureTools();

  it('boots every shipped plugin with tools, and core', () => {
    for (const plugin of ['gateway', 'files', 'process', 'knowledge', 'brain', 'collab', 'webview', 'embeddings', 'ide-bridge']) {
      assert.ok(sizes.get(plugin)?.size, `no tools of ${plugin}: it did not load`);
    }
  });

  for (const [plugin, tools] of sizes) {
    const where = relative(ROOT, budgetFile(plugin));
    it(`${plugin}: every tool within its budget in ${where}`, () => {
      const budgets = readBudgets(plugin);
      const problems: string[] = [];
      for (const [name, bytes] of tools) {
        const budget = budgets[name];
        if (budget === undefined) problems.push(`${name} is ${bytes} bytes and has no budget in ${where}`);
        else if (bytes > budget) problems.push(`${name} is ${bytes} bytes, over its budget of ${budget} in ${where}`);
      }
      for (const name of Object.keys(budgets)) if (!tools.has(name)) problems.push(`${where} has a budget for ${name}, which is no tool of ${plugin}`);
      assert.deepEqual(
        problems,
        [],
        `${problems.join('\n')}\nShorten the definition (docs/plugins/tools.md, "What a tool costs"), or, if the growth is worth it, ` +
          `write new budgets: \`${UPDATE_COMMAND}\` sets every tool's from its size today (without --write, only the missing ones), and review sees the diff.`,
      );
    });
  }

  it('budgets are sizes rounded up to a step, never below the size', () => {
    assert.deepEqual([1, 49, 50, 51, 1234].map(budgetFor), [BUDGET_STEP, 50, 50, 100, 1250]);
  });
});
