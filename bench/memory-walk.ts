/**
 * A long browser session, quicker (issue 32, point 7; ADR 0079): a few browsers walk the shop as
 * shoppers and staff do, each request to an address that was likely never asked before (every
 * list page with its sorts, filters and pages, searches for ever new words, every product, the
 * `.data` requests of client navigations, the basket, the back office's screens and its CSV
 * export), while the server's memory is sampled every second.
 */

export interface WalkSettings {
  seconds: number;
  /** Browsers walking at once. */
  browsers: number;
}

export const WALK_SETTINGS: WalkSettings = { seconds: 300, browsers: 4 };
export const QUICK_WALK_SETTINGS: WalkSettings = { seconds: 60, browsers: 4 };

const WORDS = [
  'tee',
  'mug',
  'poster',
  'figure',
  'pin',
  'hoodie',
  'rose',
  'compass',
  'north',
  'wind',
  'dragon',
  'knight',
  'pixel',
  'star',
  'moon',
  'sun',
  'sword',
  'shield',
  'map',
  'cat',
  'fox',
  'owl',
  'black',
  'grey',
  'red',
  'blue',
  'green',
  'large',
  'small',
  'limited',
  'edition',
  'witcher',
  'hollow',
];
const SORTS = ['', 'asc', 'desc', 'new', 'popular'];
const ADMIN_SCREENS = [
  '/admin',
  '/admin/orders',
  '/admin/shipments',
  '/admin/customers',
  '/admin/staff',
  '/admin/products',
  '/admin/projects',
  '/admin/categories',
  '/admin/files',
  '/admin/partners',
  '/admin/pages',
  '/admin/feedback',
  '/admin/reviews',
  '/admin/audit',
  '/admin/drops',
  '/admin/promo-codes',
  '/admin/csv',
  '/admin/search?search=tee',
];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const randomWord = () =>
  Math.random() < 0.5
    ? `${pick(WORDS)} ${pick(WORDS)}`
    : Array.from({ length: 3 + Math.floor(Math.random() * 5) }, () =>
        String.fromCharCode(97 + Math.floor(Math.random() * 26)),
      ).join('');

/** The addresses of a shop: its lists and products, from the sitemap; product ids from the API. */
async function shopMap(baseUrl: string, cookie: string) {
  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`, { headers: { cookie } })).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL(match[1] ?? '/').pathname,
  );
  const products = paths.filter((each) => each.startsWith('/product/'));
  const lists = paths.filter((each) => each.startsWith('/category/') || each.startsWith('/project/'));
  const ids: Array<{ product: number; variant?: number }> = [];
  for (const product of products) {
    const link = product.slice('/product/'.length);
    const answer = (await (await fetch(`${baseUrl}/api/product?locale=en&link=${link}`)).json()) as {
      product?: { id: number; variants?: Array<{ id: number }> };
    };
    if (answer.product) ids.push({ product: answer.product.id, variant: answer.product.variants?.[0]?.id });
  }
  if (products.length === 0 || lists.length === 0) throw new Error('the sitemap lists no products or lists');
  return { products, lists, ids };
}

/**
 * Walks `settings.seconds` with `settings.browsers` browsers (one signed in as the admin, the others
 * guests who fill a basket), calling `onTick` every second. Answers the requests made and those
 * answered 5xx or not at all.
 */
export async function walkShop(
  baseUrl: string,
  adminCookie: string,
  guestCookie: string,
  settings: WalkSettings,
  onTick: () => Promise<void>,
): Promise<{ requests: number; failures: number }> {
  const map = await shopMap(baseUrl, guestCookie);
  const listAddress = () => {
    const query = new URLSearchParams();
    const sort = pick(SORTS);
    if (sort) query.set('sort', sort);
    if (Math.random() < 0.3) query.set('available', '1');
    if (Math.random() < 0.3) query.set('price_min', String(Math.floor(Math.random() * 3000)));
    if (Math.random() < 0.5) query.set('page', String(1 + Math.floor(Math.random() * 3)));
    const text = query.toString();
    return `${pick(map.lists)}${text ? `?${text}` : ''}`;
  };
  /** One step of a browser: a page, or what a hydrated page asks (its `.data`, the basket). */
  const step = (admin: boolean): { path: string; method?: string; body?: unknown } => {
    const roll = Math.random();
    if (admin && roll < 0.35) {
      if (Math.random() < 0.1) return { path: '/api/admin/products.csv' };
      const screen = pick(ADMIN_SCREENS);
      return { path: Math.random() < 0.3 ? `${screen.split('?')[0]}.data` : screen };
    }
    if (roll < 0.55) {
      const list = listAddress();
      if (Math.random() >= 0.3) return { path: list };
      const [listPath, query] = list.split('?');
      return { path: `${listPath}.data${query ? `?${query}` : ''}` };
    }
    if (roll < 0.7) return { path: `/search/${encodeURIComponent(randomWord())}` };
    if (roll < 0.75) return { path: `/api/search?locale=en&search=${encodeURIComponent(randomWord())}` };
    if (roll < 0.9) {
      const product = pick(map.products);
      return { path: Math.random() < 0.3 ? `${product}.data` : product };
    }
    if (roll < 0.95) return { path: '/cart' };
    return { path: '/api/basket', method: 'POST', body: pick(map.ids) };
  };

  let requests = 0;
  let failures = 0;
  const until = Date.now() + settings.seconds * 1000;
  const browser = async (admin: boolean) => {
    while (Date.now() < until) {
      const { path, method = 'GET', body } = step(admin);
      requests += 1;
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          redirect: 'manual',
          headers: {
            cookie: admin ? adminCookie : guestCookie,
            'accept-encoding': 'gzip, deflate, br',
            ...(body ? { 'content-type': 'application/json', origin: baseUrl } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        if (response.status >= 500) failures += 1;
      } catch {
        failures += 1;
      }
    }
  };
  const ticking = setInterval(() => void onTick().catch(() => {}), 1000);
  try {
    await Promise.all(Array.from({ length: settings.browsers }, (_, index) => browser(index === 0)));
  } finally {
    clearInterval(ticking);
  }
  return { requests, failures };
}
