import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations inside `selector` (evaluated by the debugger, so the page's CSP allows it). */
export async function axeViolations(page: Page, selector = 'body') {
  await page.evaluate(axeSource);
  return page.evaluate(
    async (within) =>
      (
        await (
          window as unknown as {
            axe: { run(context: string): Promise<{ violations: Array<{ id: string; help: string }> }> };
          }
        ).axe.run(within)
      ).violations.map(({ id, help }) => `${id}: ${help}`),
    selector,
  );
}
