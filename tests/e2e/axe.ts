import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations inside `selector` (the whole page by default), one line each with the
 * elements at fault. Evaluated by the debugger, so the page's CSP allows it.
 */
export async function axeViolations(page: Page, selector = 'html') {
  await page.evaluate(axeSource);
  return page.evaluate(
    async (within) =>
      (
        await (
          window as unknown as {
            axe: {
              run(context: string): Promise<{
                violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown[] }> }>;
              }>;
            };
          }
        ).axe.run(within)
      ).violations.map(
        ({ id, help, nodes }) => `${id}: ${help} (${nodes.map((node) => node.target.join(' ')).join(', ')})`,
      ),
    selector,
  );
}
