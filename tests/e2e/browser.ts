import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject, onTestFailed } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * One Chromium per spec file and a fresh context (cookies, storage) per test; a screenshot of the
 * page is saved to test-results/ when a test fails.
 */
export function useBrowser(
  options: {
    javaScriptEnabled?: boolean;
    locale?: string;
    /** The browser's time zone (an IANA name); the machine's by default. */
    timezoneId?: string;
    viewport?: { width: number; height: number };
    /** Journeys of the offline-reading worker allow it; the others keep pages off its cache. */
    serviceWorkers?: 'allow' | 'block';
    /** A touch screen: CDP touch events then scroll as a finger does. */
    hasTouch?: boolean;
  } = {},
) {
  const state = {} as { browser: Browser; context: BrowserContext; page: Page; baseUrl: string };
  beforeAll(async () => {
    state.baseUrl = inject('baseUrl');
    state.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  beforeEach(async ({ task }) => {
    state.context = await state.browser.newContext({
      baseURL: state.baseUrl,
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      locale: options.locale ?? 'en-US',
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      viewport: options.viewport ?? { width: 1280, height: 900 },
      hasTouch: options.hasTouch ?? false,
      serviceWorkers: options.serviceWorkers ?? 'block',
    });
    // The test-mode notice would cover the page; tests of the notice itself clear this cookie.
    await state.context.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: state.baseUrl }]);
    state.page = await state.context.newPage();
    onTestFailed(async () => {
      mkdirSync('test-results', { recursive: true });
      await state.page
        .screenshot({ path: `test-results/${task.name.replace(/[^\w-]+/g, '-')}.png`, fullPage: true })
        .catch(() => {});
    });
  });
  afterEach(async () => {
    await state.context?.close();
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}
