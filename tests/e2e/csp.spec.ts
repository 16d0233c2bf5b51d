import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InitialResponse } from '../../src/contract/catalog.ts';
import { useBrowser } from './browser.ts';

const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

/**
 * Every main page under the shop's Content-Security-Policy, in Chromium: whatever the browser
 * refuses (a `securitypolicyviolation` event, a console error about the policy) and any uncaught
 * error is collected per page.
 */
describe('the Content-Security-Policy', () => {
  const browser = useBrowser();
  let problems: string[] = [];

  beforeEach(async () => {
    problems = [];
    const { context } = browser;
    await context.exposeBinding('reportViolation', ({ page }, text: string) => {
      problems.push(`${new URL(page.url()).pathname}: CSP violation ${text}`);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportViolation: (text: string) => void }).reportViolation;
        report(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
        );
      });
    });
    // Chromium also says in the console what a policy refused (the service worker, which these
    // tests block, complains there too, about something else).
    browser.page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        problems.push(`${new URL(browser.page.url()).pathname}: console ${message.text()}`);
      }
    });
    browser.page.on('pageerror', (error) =>
      problems.push(`${new URL(browser.page.url()).pathname}: ${error.message}`),
    );
  });

  /** Opens a page, waits until it is hydrated and idle, and returns what went wrong on it. */
  async function visit(page: Page, path: string, ready?: string) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    expect(response?.headers()['content-security-policy'], path).toContain("'nonce-");
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    if (ready) await page.locator(ready).first().waitFor();
    await page.waitForLoadState('networkidle');
  }

  it('lets every shop page run with no violation', async () => {
    const { page, baseUrl } = browser;
    const initial = (await (await fetch(`${baseUrl}/api/initial?locale=en`)).json()) as InitialResponse;
    const [category, project, product] = [initial.categories[0], initial.projects[0], initial.week[0]];
    if (!category || !project || !product) throw new Error('demo data is missing');
    // Once with the test-mode notice, as a first visit shows it.
    await page.context().clearCookies();
    await visit(page, '/', '.overlay');
    for (const path of [
      '/',
      `/category/${category.link}`,
      `/project/${project.link}`,
      '/search/mug',
      `/product/${product.link}`,
      '/cart',
      '/wishlist',
      '/login',
      '/registration',
      '/about',
      '/shipping',
      '/partners',
      '/feedback',
    ]) {
      await visit(page, path);
    }
    // The same pages again, each from the page cache, with the nonce of its first render.
    await visit(page, `/product/${product.link}`);
    await visit(page, `/category/${category.link}`);
    expect(problems).toEqual([]);
  });

  it('lets the account, checkout, back-office and sandbox pages run with no violation', async () => {
    const { page } = browser;
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('banner').getByRole('link', { name: ADMIN.email }).waitFor();

    await visit(page, '/profile');
    await visit(page, '/order/history');
    await visit(page, '/admin', '.admin-charts');
    const productId = await page.evaluate(async () => {
      const initial = (await (await fetch('/api/initial?locale=en')).json()) as {
        week: Array<{ id: number; inStock: number; hasOptions: boolean }>;
      };
      const product = initial.week.find((item) => item.inStock >= 3 && !item.hasOptions);
      if (!product) throw new Error('no product in stock');
      const answer = await fetch('/api/basket', {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ product: String(product.id) }),
      });
      if (!answer.ok) throw new Error(`basket answered ${answer.status}`);
      return product.id;
    });
    // The product editor with its rich-text editor, whose style goes into the head.
    await visit(page, `/admin/products/${productId}`, '.rich-text__content');
    expect(await page.locator('style[data-tiptap-style]').count()).toBe(1);

    await visit(page, '/order/shipping');
    await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+7 900 123 45 67');
    await page.getByRole('combobox', { name: 'Country' }).selectOption('RU');
    await page.getByRole('textbox', { name: 'City' }).fill('Kazan');
    await page.getByRole('textbox', { name: 'Postcode' }).fill('420111');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('Baumana 44');
    const delivery = page
      .locator('.checkout-summary .summary-list > div')
      .filter({ has: page.locator('dt', { hasText: /^Delivery$/ }) })
      .locator('dd');
    // The delivery cost is quoted (a price rather than a dash) before the next step.
    await expect.poll(() => delivery.textContent(), { timeout: 20_000 }).toMatch(/^\s*\$\d/);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((url) => url.pathname === '/order/payment');
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Pay' }).click();
    // The sandbox's own page, with its own style, under the same policy.
    await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('button.pay').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('keeps the back office out of another site’s frames', async () => {
    const { page, baseUrl } = browser;
    const admin = await fetch(`${baseUrl}/admin`);
    expect(admin.headers.get('x-frame-options')).toBe('DENY');
    expect(admin.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    // A page of another origin (another port) that puts the back office in a frame.
    const framing = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>framing</title><iframe src="${baseUrl}/admin"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, '127.0.0.1', resolve));
    const address = framing.address();
    try {
      if (typeof address !== 'object' || !address) throw new Error('the framing page does not listen');
      await page.goto(`http://127.0.0.1:${address.port}/`);
      await page.locator('iframe').waitFor();
      await page.waitForLoadState('networkidle');
    } finally {
      framing.close();
    }
    const frame = page.frames().find((each) => each !== page.mainFrame());
    if (!frame) throw new Error('the iframe has no frame');
    const rendered = await frame
      .evaluate(() => document.querySelector('.site-header') !== null)
      .catch(() => false);
    expect(rendered).toBe(false);
    expect(problems.join('\n')).toContain("frame-ancestors 'none'");
  });
});
