import { describe, expect, it } from 'vitest';
import type { InitialResponse, ProductListResponse, ProductResponse } from '../../src/contract/catalog.ts';
import { useBrowser } from './browser.ts';

const api = async <T>(baseUrl: string, path: string): Promise<T> =>
  (await fetch(`${baseUrl}${path}`)).json() as Promise<T>;

describe('browsing the catalogue', () => {
  const browser = useBrowser();

  it('goes home → category → filter and sort → product → gallery → language → misspelt search', async () => {
    const { page, baseUrl } = browser;
    const initial = await api<InitialResponse>(baseUrl, '/api/initial?locale=en');
    const category = initial.categories[0];
    if (!category) throw new Error('demo data has no categories');

    const home = await page.goto('/');
    expect(home?.status()).toBe(200);
    expect(await page.title()).toBe('Vitrina');
    await page.getByRole('heading', { name: 'Featured this week' }).waitFor();
    // Once hydrated (the menu panel is filled in the browser), links navigate within the page.
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    await page.evaluate(() => Object.assign(window, { keptAcrossNavigations: true }));
    const stillTheSamePage = () =>
      page.evaluate(() => (window as unknown as { keptAcrossNavigations?: boolean }).keptAcrossNavigations);

    await page.locator('.category-tiles').getByRole('link', { name: category.name }).click();
    await page.getByRole('heading', { level: 1, name: category.name }).waitFor();
    expect(await page.title()).toContain(category.name);

    const list = await api<ProductListResponse>(baseUrl, `/api/category?locale=en&link=${category.link}`);
    const cards = page.locator('.product-grid .product-card');
    expect(await cards.count()).toBe(list.products.length);

    // Filter by a project: only its products stay; unticking it clears the filter.
    const project = list.projects[0];
    if (!project) throw new Error('category has no project');
    const side = page.getByRole('complementary');
    const historyLength = await page.evaluate(() => history.length);
    await side.getByRole('checkbox', { name: new RegExp(`^${project.name}`) }).click();
    await expect.poll(() => cards.count()).toBe(list.counts.projects[project.id]);
    expect(page.url()).toContain(`project=${project.id}`);
    await side.getByRole('checkbox', { name: new RegExp(`^${project.name}`) }).click();
    await expect.poll(() => cards.count()).toBe(list.products.length);
    // Filters replace the list's history entry rather than adding one each.
    expect(await page.evaluate(() => history.length)).toBe(historyLength);

    // Sort cheap first: the prices shown go up.
    await page.getByLabel('Sort').selectOption('asc');
    await expect.poll(() => page.url()).toContain('sort=asc');
    const shown = await page.locator('.product-grid .price > span:first-child').allTextContents();
    const amounts = shown.map((text) => Number(text.replace(/[^\d.]/g, '')));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));

    // "In stock only" hides out-of-stock items, with the sort kept.
    await side.getByRole('checkbox', { name: /^In stock only/ }).click();
    await expect
      .poll(() => cards.count())
      .toBe(list.products.filter((product) => product.inStock > 0).length);

    // A product with several images: the thumbnails switch the large one.
    const products = await Promise.all(
      list.products.map((card) => api<ProductResponse>(baseUrl, `/api/product?locale=en&link=${card.link}`)),
    );
    const withGallery = products.find(
      (answer) => answer.product.images.length > 1 && answer.product.inStock > 0,
    )?.product;
    if (!withGallery) throw new Error('no in-stock product with a gallery in this category');
    await page.getByRole('link', { name: withGallery.name }).first().click();
    await page.getByRole('heading', { level: 1, name: withGallery.name }).waitFor();
    expect(await page.title()).toContain(withGallery.name);
    // The image in view is the one whose button Tab reaches.
    const main = page.locator('.gallery__open[tabindex="0"] img');
    expect(await main.getAttribute('src')).toContain(withGallery.images[0]);
    await page.getByRole('button', { name: 'Show image 2' }).click();
    await expect.poll(() => main.getAttribute('src')).toContain(withGallery.images[1]);
    await page
      .getByRole('navigation', { name: 'Breadcrumbs' })
      .getByRole('link', { name: withGallery.project.name })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Add to cart' }).isEnabled()).toBe(true);
    expect(await stillTheSamePage()).toBe(true);

    // Switch to Russian: the same page, now in Russian and in roubles.
    const russian = await api<ProductResponse>(baseUrl, `/api/product?locale=ru&link=${withGallery.link}`);
    await page.getByRole('button', { name: 'Rus' }).first().click();
    await page.getByRole('heading', { level: 1, name: russian.product.name }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/product/${withGallery.link}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    expect(await page.locator('.product__price').textContent()).toContain('₽');

    // Search with a misspelt word finds the product; the found-count label shows.
    const word = russian.product.name.split(/\s+/).find((part) => part.length >= 6) ?? russian.product.name;
    const misspelt = word.slice(0, 2) + word.slice(3);
    await page.getByRole('combobox', { name: /^(Search|Поиск)$/ }).fill(misspelt);
    await page.getByRole('combobox', { name: /^(Search|Поиск)$/ }).press('Enter');
    await page.waitForURL(/\/search\//);
    await page.getByRole('link', { name: russian.product.name }).first().waitFor();
    expect(await page.locator('.search-field__found').textContent()).toMatch(/Найдено: \d+/);
  });

  it('answers an unknown URL with the 404 page and status 404', async () => {
    const { page } = browser;
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    const product = await page.goto('/product/no-such-product');
    expect(product?.status()).toBe(404);
  });

  it('sends a list page past the last one to the last page, and answers 404 for a page that is none', async () => {
    const { page, baseUrl } = browser;
    const initial = await api<InitialResponse>(baseUrl, '/api/initial?locale=en');
    const category = initial.categories[0];
    if (!category) throw new Error('demo data has no categories');
    await page.goto(`/category/${category.link}?sort=asc&page=99`);
    await page.getByRole('heading', { level: 1, name: category.name }).waitFor();
    // The demo lists fit on one page: the last page is the first, and the sort stays.
    expect(new URL(page.url()).search).toBe('?sort=asc');
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    const none = await page.goto(`/category/${category.link}?page=abc`);
    expect(none?.status()).toBe(404);
  });

  it('shows the forbidden page with status 403', async () => {
    const response = await browser.page.goto('/forbidden');
    expect(response?.status()).toBe(403);
    await browser.page.getByRole('heading', { name: 'Access denied' }).waitFor();
  });

  it('keeps the test-mode notice until OK is pressed', async () => {
    const { page, context } = browser;
    await context.clearCookies();
    await page.goto('/');
    await page.getByText('Test mode: payments and deliveries are simulated').waitFor();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.reload();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('loads a product page from a handful of scripts, preloaded behind its images, with its data', async () => {
    const { baseUrl } = browser;
    const initial = await api<InitialResponse>(baseUrl, '/api/initial?locale=en');
    const link = initial.week[0]?.link;
    if (!link) throw new Error('demo data has no week sale');
    const html = await (await fetch(`${baseUrl}/product/${link}`)).text();
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    // The route manifest, the entry, the shared chunk, root, the route and the few chunks of shop
    // code it shares with other pages (ADR 0015, ADR 0017, ADR 0064); no admin or checkout chunk,
    // and not the review form, which only a signed-in shopper sees.
    expect(preloads.length).toBeGreaterThan(0);
    expect(preloads.length).toBeLessThanOrEqual(8);
    expect(html).not.toMatch(/assets\/(review-form|error-messages)-/);
    for (const preload of preloads) expect(preload).toContain('fetchPriority="low"');
    expect(html).not.toMatch(/assets\/(ui|checkout|schemas|rich-text-editor)-/);
    // The loader data for hydration, read before the page was rendered (entry.server.tsx).
    expect(html).toContain('window.__reactRouterContext.streamController.close();');
  });

  it("puts the pages' titles and search-engine tags into the head, and follows navigations", async () => {
    const { page, baseUrl } = browser;
    const product = (await api<InitialResponse>(baseUrl, '/api/initial?locale=en')).week.find(
      (item) => !item.hasOptions,
    );
    if (!product) throw new Error('demo data has no week sale');
    const html = await (await fetch(`${baseUrl}/product/${product.link}`)).text();
    const [head = '', body = ''] = html.split('</head>');
    const url = `${baseUrl}/product/${product.link}`;
    expect(head).toContain(`<title>${product.name} · Vitrina</title>`);
    expect(head).toMatch(/<meta name="description" content="[^"]{20,}"\/>/);
    expect(head).toContain(`<link rel="canonical" href="${url}"/>`);
    expect(head).toContain(`<meta property="og:url" content="${url}"/>`);
    expect(head).toContain('<meta property="og:type" content="product"/>');
    expect(head).toMatch(/<meta property="og:image" content="http[^"]+\.webp"\/>/);
    const jsonLd = [
      ...body.matchAll(/<script type="application\/ld\+json" nonce="[0-9a-f]+">(.*?)<\/script>/g),
    ].map((match) => JSON.parse(match[1] ?? '') as { '@type': string });
    expect(jsonLd.map((item) => item['@type'])).toEqual(['Product', 'BreadcrumbList']);
    // A private page stays out of search engines; a client navigation replaces title and tags.
    await page.goto('/login');
    expect(await page.title()).toBe('Sign in · Vitrina');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    await page.evaluate(() => Object.assign(window, { keptAcrossNavigations: true }));
    await page.locator('header .brand').click();
    await page.getByRole('heading', { name: 'Featured this week' }).waitFor();
    expect(await page.evaluate(() => 'keptAcrossNavigations' in window)).toBe(true);
    expect(await page.title()).toBe('Vitrina');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${baseUrl}/`);
    expect(await page.locator('meta[name="robots"]').count()).toBe(0);
  });
});

describe('without JavaScript', () => {
  const browser = useBrowser({ javaScriptEnabled: false });

  it('a product page still shows name, price and description', async () => {
    const { page, baseUrl } = browser;
    const initial = await api<InitialResponse>(baseUrl, '/api/initial?locale=en');
    const featured = initial.week[0];
    if (!featured) throw new Error('no featured product');
    const { product } = await api<ProductResponse>(baseUrl, `/api/product?locale=en&link=${featured.link}`);
    await page.goto(`/product/${product.link}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    expect(await page.locator('.product__price').textContent()).toMatch(/\$\d/);
    const description = product.desc
      .replace(/<[^>]*>/g, ' ')
      .trim()
      .split(/\s+/)
      .slice(0, 4)
      .join(' ');
    expect((await page.locator('.product__description').textContent())?.replace(/\s+/g, ' ')).toContain(
      description,
    );
  });

  it('the search form and the language switch work as plain forms', async () => {
    const { page } = browser;
    await page.goto('/');
    await page.getByRole('combobox', { name: /^(Search|Поиск)$/ }).fill('mug');
    await page.getByRole('combobox', { name: /^(Search|Поиск)$/ }).press('Enter');
    await page.waitForURL(/\/search\/mug$/);
    await page.getByRole('button', { name: 'Rus' }).first().click();
    await page.waitForURL(/\/search\/mug$/);
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
  });
});
