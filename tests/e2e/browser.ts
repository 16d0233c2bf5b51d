import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';

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
  beforeEach(async () => {
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
  });
  // Before the context closes (Vitest calls onTestFailed only after afterEach).
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      mkdirSync('test-results', { recursive: true });
      await state.page
        .screenshot({ path: `test-results/${task.name.replace(/[^\w-]+/g, '-')}.png`, fullPage: true })
        .catch(() => {});
    }
    await state.context?.close();
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

/**
 * What makes the page scroll sideways: nothing when the document fits the window, otherwise the
 * outermost elements that stick out past its right edge (tag, class, text and right edge), so a
 * failure says what to mend. Elements inside a box that scrolls or clips sideways do not count.
 */
export const sidewaysOverflow = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const clipsSideways = (element: Element) => getComputedStyle(element).overflowX !== 'visible';
    const found: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      if (element.getBoundingClientRect().right <= width + 0.5) continue;
      let ancestor = element.parentElement;
      let counted = true;
      for (; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement)
        if (ancestor.getBoundingClientRect().right > width + 0.5 || clipsSideways(ancestor)) counted = false;
      if (!counted) continue;
      const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      found.push(
        `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> "${text}" ends at ${Math.round(element.getBoundingClientRect().right)} px of ${width}`,
      );
    }
    return found.length > 0
      ? found.slice(0, 5)
      : [`the document is ${document.documentElement.scrollWidth} px wide for ${width}`];
  });

/** Resolves once the page has hydrated: the menu's close button exists only in the browser's render. */
export const hydrated = (page: Page) =>
  page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
