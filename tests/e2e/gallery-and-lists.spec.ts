import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InitialResponse, ProductListResponse, ProductResponse } from '../../src/contract/catalog.ts';
import { translator } from '../../src/web/i18n/messages.ts';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';

const api = async <T>(baseUrl: string, path: string): Promise<T> =>
  (await fetch(`${baseUrl}${path}`)).json() as Promise<T>;

/** A page of the shop, hydrated (the navigation panel is filled in the browser). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
}

/** A product with three images or more, in the given language. */
async function productWithGallery(baseUrl: string, locale: 'ru' | 'en') {
  const initial = await api<InitialResponse>(baseUrl, `/api/initial?locale=${locale}`);
  for (const category of initial.categories) {
    const list = await api<ProductListResponse>(
      baseUrl,
      `/api/category?locale=${locale}&link=${category.link}`,
    );
    for (const card of list.products) {
      const { product } = await api<ProductResponse>(
        baseUrl,
        `/api/product?locale=${locale}&link=${card.link}`,
      );
      if (product.images.length >= 3) return product;
    }
  }
  throw new Error('demo data has no product with three images');
}

/** A finger drawn from right to left across `box`, as touch events (the context has a touch screen). */
async function swipeLeft(page: Page, box: { x: number; y: number; width: number; height: number }) {
  const cdp = await page.context().newCDPSession(page);
  const y = Math.round(box.y + box.height / 2);
  const from = box.x + box.width * 0.8;
  const to = box.x + box.width * 0.2;
  await cdp.send('Input.dispatchTouchEvent', {
    type: 'touchStart',
    touchPoints: [{ x: Math.round(from), y }],
  });
  for (let step = 1; step <= 10; step++) {
    const x = Math.round(from + ((to - from) * step) / 10);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

const viewports = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

describe.each(
  (['en', 'ru'] as const).flatMap((locale) => viewports.map((viewport) => ({ locale, viewport }))),
)(
  'gallery, category pictures, all products, recently viewed ($locale, $viewport.width px)',
  ({ locale, viewport }) => {
    const browser = useBrowser({ locale: locale === 'ru' ? 'ru-RU' : 'en-US', viewport, hasTouch: true });
    const t = translator(locale);

    it('moves through the images with the arrow keys and a swipe, zooms full screen, and gives focus back', async () => {
      const { page, baseUrl } = browser;
      const product = await productWithGallery(baseUrl, locale);
      const count = product.images.length;
      await open(page, `/product/${product.link}`);
      const gallery = page.getByRole('region', { name: t('product-images') });
      const strip = gallery.locator('.gallery__slides');
      const shown = gallery.locator('.gallery__open[tabindex="0"]');
      const thumbnail = (number: number) =>
        gallery.getByRole('button', { name: t('show-image', { number }) });
      const atSlide = (number: number) =>
        strip.evaluate(
          (element, index) => Math.abs(element.scrollLeft - index * element.clientWidth) < 2,
          number - 1,
        );
      const openerName = (number: number) => t('open-image', { number, count });

      // The first image comes with the page, not lazily, and leads.
      const first = shown.locator('img');
      expect(await first.getAttribute('src')).toContain(product.images[0]);
      expect(await first.getAttribute('fetchpriority')).toBe('high');
      expect(await first.getAttribute('loading')).toBeNull();
      expect(await shown.getAttribute('aria-label')).toBe(openerName(1));

      // Arrow keys: next, back, and round from the first to the last.
      await shown.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => thumbnail(2).getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => atSlide(2)).toBe(true);
      expect(await shown.getAttribute('aria-label')).toBe(openerName(2));
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => atSlide(1)).toBe(true);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => thumbnail(count).getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => atSlide(count)).toBe(true);
      // The buttons too.
      await gallery.getByRole('button', { name: t('next-image') }).click();
      await expect.poll(() => atSlide(1)).toBe(true);
      expect(await thumbnail(1).getAttribute('aria-pressed')).toBe('true');

      // A finger swipes to the next image; the browser snaps to it and the gallery follows.
      const box = await strip.boundingBox();
      if (!box) throw new Error('the gallery is not on the screen');
      await swipeLeft(page, box);
      await expect.poll(() => atSlide(2)).toBe(true);
      await expect.poll(() => thumbnail(2).getAttribute('aria-pressed')).toBe('true');
      expect(await axeViolations(page, '.gallery')).toEqual([]);

      // Full screen, at the image in view; keys move inside it; a click zooms in.
      await shown.click();
      const viewer = page.getByRole('dialog', { name: product.name });
      await viewer.waitFor();
      await expect
        .poll(() => viewer.locator('.gallery-viewer__position').textContent())
        .toBe(t('image-position', { number: 2, count }));
      expect(await page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null)).toBe(true);
      await page.keyboard.press('ArrowRight');
      await expect
        .poll(() => viewer.locator('.gallery-viewer__position').textContent())
        .toBe(t('image-position', { number: 3, count }));
      // The image in view is the one whose button Tab reaches.
      const zoom = viewer.locator('.gallery-viewer__zoom[tabindex="0"]');
      await expect
        .poll(() => zoom.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      expect(await zoom.getAttribute('aria-label')).toBe(t('zoom-in'));
      await zoom.click();
      await expect.poll(() => zoom.getAttribute('aria-label')).toBe(t('zoom-out'));
      const zoomedWidth = await zoom.locator('img').evaluate((image) => image.getBoundingClientRect().width);
      expect(zoomedWidth).toBeGreaterThan(Math.min(viewport.width, viewport.height) * 1.5);
      expect(await axeViolations(page, 'dialog[open]')).toEqual([]);
      await zoom.click();
      await expect.poll(() => zoom.getAttribute('aria-label')).toBe(t('zoom-in'));

      // Escape leaves; the page shows the image last seen, focus on its button.
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'hidden' });
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe(openerName(3));
      expect(await atSlide(3)).toBe(true);
      // Opened again and closed with its button, focus comes back as well.
      await page.keyboard.press('Enter');
      await viewer.waitFor();
      await viewer.getByRole('button', { name: t('close-images') }).click();
      await viewer.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        openerName(3),
      );
    });

    it('pictures every category tile, and lists all products with sort, filters and the menu link', async () => {
      const { page, baseUrl } = browser;
      const initial = await api<InitialResponse>(baseUrl, `/api/initial?locale=${locale}`);
      await open(page, '/');
      const tiles = page.locator('.category-tiles .category-tile');
      expect(await tiles.count()).toBe(initial.categories.length);
      for (const category of initial.categories) {
        const image = tiles.filter({ hasText: category.name }).locator('img');
        expect(await image.getAttribute('loading')).toBe('lazy');
        expect(await image.getAttribute('width')).toBeTruthy();
        expect(await image.getAttribute('height')).toBeTruthy();
        await image.scrollIntoViewIfNeeded();
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
          .toBeGreaterThan(0);
      }
      expect(await axeViolations(page, '.home')).toEqual([]);

      // Every visible product: the projects share them out.
      const perProject = await Promise.all(
        initial.projects.map((project) =>
          api<ProductListResponse>(baseUrl, `/api/project?locale=${locale}&link=${project.link}`),
        ),
      );
      const total = perProject.reduce((sum, list) => sum + list.products.length, 0);
      await page
        .getByRole('region', { name: t('all-categories') })
        .getByRole('link', { name: t('all-products') })
        .click();
      await page.getByRole('heading', { level: 1, name: t('all-products') }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/products');
      const cards = page.locator('.product-grid .product-card');
      expect(await cards.count()).toBe(Math.min(total, 48));
      await page.getByRole('heading', { level: 2, name: t('products-count', { count: total }) }).waitFor();

      // On a phone, sort and filters are in a drawer.
      const openFilters = async () => {
        if (await page.getByLabel(t('sort')).isVisible()) return;
        await page.getByRole('button', { name: t('filters-and-sort') }).click();
      };
      await openFilters();
      await page.getByLabel(t('sort')).selectOption('asc');
      await expect.poll(() => page.url()).toContain('sort=asc');
      const amounts = async () =>
        (await page.locator('.product-grid .price > span:first-child').allTextContents()).map((text) =>
          Number(text.replace(/[^\d.,]/g, '').replace(',', '.')),
        );
      await expect
        .poll(async () => {
          const shown = await amounts();
          return shown.every((amount, index) => index === 0 || (shown[index - 1] ?? 0) <= amount);
        })
        .toBe(true);

      const project = initial.projects[0];
      if (!project) throw new Error('demo data has no projects');
      await openFilters();
      await page
        .getByRole('complementary')
        .getByRole('checkbox', { name: new RegExp(`^${project.name}`) })
        .click();
      await expect.poll(() => cards.count()).toBe(perProject[0]?.products.length);
      expect(page.url()).toContain(`project=${project.id}`);
      expect(await axeViolations(page, '.shop-list')).toEqual([]);

      // The navigation panel leads there too.
      await open(page, '/');
      await page.getByRole('button', { name: t('menu') }).click();
      await page
        .getByRole('navigation', { name: t('menu') })
        .getByRole('link', { name: t('all-products') })
        .click();
      await page.waitForURL((url) => url.pathname === '/products');
    });

    it('shows the products viewed before, newest first, once the page runs in the browser', async () => {
      const { page, baseUrl } = browser;
      const initial = await api<InitialResponse>(baseUrl, `/api/initial?locale=${locale}`);
      const [a, b, c] = initial.week;
      if (!a || !b || !c) throw new Error('demo data has fewer than three featured products');
      const recent = page.getByRole('region', { name: t('recently-viewed') });
      const names = () => recent.locator('.product-card__name').allTextContents();

      await open(page, `/product/${a.link}`);
      expect(await recent.count()).toBe(0);
      await open(page, `/product/${b.link}`);
      await expect.poll(names).toEqual([a.name]);
      await open(page, `/product/${c.link}`);
      await expect.poll(names).toEqual([b.name, a.name]);
      expect(await axeViolations(page, '.recently-viewed')).toEqual([]);

      // A card there leads to its product, whose list then starts with the one just left.
      await recent.getByRole('link', { name: a.name }).click();
      await page.getByRole('heading', { level: 1, name: a.name }).waitFor();
      await expect.poll(names).toEqual([c.name, b.name]);

      // The server's page is everyone's: the list is not in it.
      const html = await (await fetch(`${baseUrl}/product/${a.link}`)).text();
      expect(html).not.toContain('recently-viewed-heading');
    });
  },
);
