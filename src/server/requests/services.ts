import type { Redis } from 'ioredis';
import type {
  InitialResponse,
  ProductCard,
  ProductListResponse,
  ProductResponse,
  SearchSuggestions,
} from '../../contract/catalog.ts';
import type { FeedbackInput } from '../../contract/feedback.ts';
import { DEFAULT_LOCALE, type Locale } from '../../contract/locale.ts';
import type { StaticPage } from '../../contract/pages.ts';
import { type ListView, WHOLE_LIST } from '../../contract/shop.ts';
import { createCatalogCache } from '../caches/cache.ts';
import { cdnPurge } from '../caches/cdn-purge.ts';
import {
  type CatalogChange,
  type CatalogWrite,
  cacheKeys,
  createChangeLog,
  EVERYTHING,
} from '../caches/changes.ts';
import { type CatalogInvalidation, localInvalidation, redisInvalidation } from '../caches/invalidation.ts';
import { cardsInOrder } from '../catalog/cards.ts';
import { orderProductIds, productKeys } from '../catalog/change-keys.ts';
import { getProduct } from '../catalog/product-page.ts';
import { createReleaseClock, productsReleasedAt } from '../catalog/release.ts';
import { suggestSearch } from '../catalog/search.ts';
import { recordSearch } from '../catalog/search-stats.ts';
import { normaliseSearchText } from '../catalog/search-text.ts';
import {
  listCategories,
  listCategoryPictures,
  listProducts,
  listProjects,
  listUpcoming,
  listWeekProducts,
  type SearchHelp,
  searchHelp,
  type UpcomingScope,
} from '../catalog/service.ts';
import { listProductLinks, sitemapEntries, sitemapFile } from '../catalog/sitemap.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createDeliveryQuotes } from '../delivery/service.ts';
import { submitFeedback } from '../feedback/service.ts';
import { createStorage, type ObjectStorage } from '../files/storage.ts';
import { counter } from '../metrics.ts';
import { ordersToShip } from '../orders/staff-orders.ts';
import { getStaticPage } from '../pages/service.ts';
import { listPartners } from '../partners/service.ts';
import { createRateLimits } from '../security/rate-limits.ts';
import { catalogWrites } from './catalog-writes.ts';

type Answer<T> = Omit<T, 'success'>;

const catalogInvalidations = counter({
  name: 'vitrina_catalog_invalidations_total',
  help: 'Catalogue changes recorded, by origin (a write here: local; a message from another instance or a Redis reconnect: remote; a release time reached: release) and scope (everything, keys, stock)',
  labelNames: ['origin', 'scope'],
});

/** A search's first page as it is: what the search page shows first, and what analytics count. */
const FIRST_PAGE: ListView = { ...WHOLE_LIST, page: 1 };

/** The cache key of a view: groups in their stable order (`distinctIds`, `distinctSizes`), sizes in any case. */
const viewKey = (view: ListView) =>
  [
    view.sort,
    view.projectIds.join(','),
    view.categoryIds.join(','),
    view.sizes.map((size) => size.toLowerCase()).join(','),
    view.available ? 'available' : '',
    view.price.min ?? '',
    view.price.max ?? '',
    view.page ?? 'all',
  ].join(':');

/**
 * The domain services bound to one database, as the HTTP routes and the React Router loaders use
 * them. Catalogue reads go through the read-through cache.
 */
export function createServices(options: {
  db: Database;
  config: Config;
  usdRate: () => number;
  /** Reads the rate in force again (after a manager set one); the main process's rate keeper. */
  reloadUsdRate?: () => Promise<void>;
  redis?: Redis;
  log?: (message: string) => void;
  /** Where uploads live; by default the one `config.storage` names. */
  storage?: ObjectStorage;
}) {
  const { db, config, usdRate, redis } = options;
  const storage = options.storage ?? createStorage(config.storage);
  const rateLimits = createRateLimits({ redis, multiplier: config.rateLimitMultiplier });
  const mailShop = { email: config.shopEmail, url: config.publicUrl, locale: config.shopLocale };
  // What changed, by key (ADR 0042). Several instances share one Redis: a write on one drops what
  // shows it in the caches of all.
  const changes = createChangeLog();
  const noteChange = (change: CatalogChange, origin: 'local' | 'remote' | 'release') => {
    const scope = 'everything' in change ? 'everything' : change.stockOnly ? 'stock' : 'keys';
    catalogInvalidations.inc({ origin, scope });
    changes.record(change);
    // A release time may have been set or moved (stock moves never move one).
    if (!('stockOnly' in change && change.stockOnly)) void releaseClock.rearm();
  };
  const invalidation: CatalogInvalidation = redis
    ? redisInvalidation({
        redis,
        onRemoteChange: (change) => noteChange(change, 'remote'),
        log: options.log,
      })
    : localInvalidation();
  const cache = createCatalogCache({
    changes,
    canKeep: invalidation.canKeep,
    maxBytes: config.catalogCacheBytes,
  });
  // At each release time every instance drops what showed the released products as announced
  // (ADR 0041, 0042): its own timer, no message needed, and the CDN is purged of the same keys.
  const releaseClock = createReleaseClock({
    db,
    onRelease: async (at) => {
      const released = await productKeys(db, await productsReleasedAt(db, at));
      noteChange({ keys: released }, 'release');
      purge?.purge({ keys: released });
    },
    log: options.log,
  });
  const purge = config.cdnPurgeUrl ? cdnPurge({ url: config.cdnPurgeUrl, log: options.log }) : undefined;
  /**
   * The keys a stock move of these products touches. Moves asked for while the same read is under
   * way share it: a batch of a drop's orders (ADR 0083) answers together and each names the same
   * product. Orders never move a product between lists, so a read begun a moment earlier is as good.
   */
  const stockKeysLoading = new Map<string, Promise<string[]>>();
  const stockKeys = (productIds: readonly number[]) => {
    const which = [...new Set(productIds)].sort((a, b) => a - b).join(',');
    let loading = stockKeysLoading.get(which);
    if (!loading) {
      loading = productKeys(db, productIds, { stockOnly: true }).finally(() =>
        stockKeysLoading.delete(which),
      );
      stockKeysLoading.set(which, loading);
    }
    return loading;
  };
  /** What a change here does: recorded, sent to the CDN, and told to the other instances (awaited). */
  const change = (what: CatalogChange) => {
    noteChange(what, 'local');
    purge?.purge(what);
    return invalidation.publish(what);
  };

  /**
   * The catalogue's cached reads. `seen` hears the keys of every answer read through them: a page's
   * keys are those of the answers its loaders read (ssr.ts).
   */
  const catalogReads = (seen?: (keys: readonly string[]) => void) => {
    const remember = async <T>(
      key: string,
      load: () => Promise<T>,
      keysOf: (value: T) => readonly string[],
    ) => {
      const answer = await cache.remember(key, load, keysOf);
      seen?.(answer.keys);
      return answer;
    };
    const listKeys = (list: string) => () => [list];
    const reads = {
      /** The header's menu: projects, categories and the dollar rate (changed only by a change of everything). */
      menu: (locale: Locale) =>
        remember(
          `menu:${locale}`,
          async () => {
            const [categories, projects] = await Promise.all([
              listCategories(db, locale),
              listProjects(db, locale),
            ]);
            return { currencyUsd: usdRate(), categories, projects };
          },
          () => [],
        ),
      initial: (locale: Locale) =>
        remember<Answer<InitialResponse>>(
          `initial:${locale}`,
          async () => {
            const [menu, week] = await Promise.all([reads.menu(locale), listWeekProducts(db, locale)]);
            return { ...menu.value, week };
          },
          (initial) => [cacheKeys.home, ...initial.week.map((card) => cacheKeys.product(card.id))],
        ),
      /** A picture file per category id, for the home page's tiles. */
      categoryPictures: () =>
        remember('category-pictures', () => listCategoryPictures(db), listKeys(cacheKeys.home)),
      /** A static page's text as staff wrote it ('' in a language: the built-in text); a save changes everything. */
      staticPage: (page: StaticPage) =>
        remember(
          `static-page:${page}`,
          () => getStaticPage(db, page),
          () => [],
        ),
      /** Every visible product, as a shop list. */
      all: (locale: Locale, view: ListView) =>
        remember<Answer<ProductListResponse>>(
          `all:${locale}:${viewKey(view)}`,
          () => listProducts(db, locale, { kind: 'all' }, view),
          listKeys(cacheKeys.all),
        ),
      /**
       * The visible ones of these products, in this order (a shopper's recently viewed). Not cached:
       * every shopper's list is their own.
       */
      cards: (locale: Locale, ids: number[]) => cardsInOrder(db, locale, ids),
      /** A shop list; `view` sorts, filters and picks a page (default: the whole list as the spec's call answers). */
      project: (locale: Locale, link: string, view: ListView = WHOLE_LIST) =>
        remember<Answer<ProductListResponse>>(
          `project:${locale}:${link}:${viewKey(view)}`,
          () => listProducts(db, locale, { kind: 'project', link }, view),
          listKeys(cacheKeys.project(link)),
        ),
      category: (locale: Locale, link: string, view: ListView = WHOLE_LIST) =>
        remember<Answer<ProductListResponse>>(
          `category:${locale}:${link}:${viewKey(view)}`,
          () => listProducts(db, locale, { kind: 'category', link }, view),
          listKeys(cacheKeys.category(link)),
        ),
      search: (locale: Locale, text: string, view: ListView = WHOLE_LIST) =>
        remember<Answer<ProductListResponse>>(
          `search:${locale}:${text.trim().toLowerCase()}:${viewKey(view)}`,
          () => listProducts(db, locale, { kind: 'search', text }, view),
          listKeys(cacheKeys.search),
        ),
      /** Suggestions while typing; texts are cached as search reads them. */
      suggest: (locale: Locale, text: string) =>
        remember<SearchSuggestions>(
          `suggest:${locale}:${normaliseSearchText(text)}:${/\s$/u.test(text)}`,
          () => suggestSearch(db, locale, text),
          listKeys(cacheKeys.search),
        ),
      /** "Did you mean" and popular products, for a search that found nothing. */
      searchHelp: (locale: Locale, text: string) =>
        remember<SearchHelp>(
          `search-help:${locale}:${normaliseSearchText(text)}`,
          () => searchHelp(db, locale, text),
          listKeys(cacheKeys.search),
        ),
      /** Announced products, soonest first, for a "coming soon" section (ADR 0041). */
      upcoming: (locale: Locale, scope: UpcomingScope) => {
        const [where, listKey] =
          scope.kind === 'all'
            ? ['all', cacheKeys.home]
            : scope.kind === 'search'
              ? [`search:${normaliseSearchText(scope.text)}`, cacheKeys.search]
              : [
                  `${scope.kind}:${scope.link}`,
                  scope.kind === 'project' ? cacheKeys.project(scope.link) : cacheKeys.category(scope.link),
                ];
        return remember<ProductCard[]>(
          `upcoming:${locale}:${where}`,
          () => listUpcoming(db, locale, scope),
          (cards) => [listKey, cacheKeys.all, ...cards.map((card) => cacheKeys.product(card.id))],
        );
      },
      /** The product's page: it shows the product and its similar ones. */
      product: (locale: Locale, link: string) =>
        remember<Answer<ProductResponse>>(
          `product:${locale}:${link}`,
          () => getProduct(db, locale, link),
          ({ product, similar }) => [product.id, ...similar.map((card) => card.id)].map(cacheKeys.product),
        ),
    };
    return reads;
  };

  const catalog = {
    ...catalogReads(),
    /** The same reads, telling `seen` the keys of every answer read (a page's keys). */
    readsFor: (seen: (keys: readonly string[]) => void) => catalogReads(seen),
    /** Counts a search for the back office, with what its first page found (cached by then). */
    countSearch: async (locale: Locale, text: string) => {
      const found = await catalog.search(locale, text, FIRST_PAGE);
      await recordSearch(db, text, found.value.paging?.total ?? 0, new Date());
    },
    /**
     * After a write that shows everywhere (rates, projects, categories, synonyms, a CSV import):
     * every cached answer and page is dropped, here and, once this resolves, on every instance.
     */
    invalidate: () => change(EVERYTHING),
    /**
     * After a write to these products (price, texts, pictures, visibility, variants, reviews,
     * release time): drops what shows them, on every instance once this resolves. `before` are
     * the keys read before the write, when it may move a product between lists.
     */
    productsChanged: async (productIds: readonly number[], before: readonly string[] = []) =>
      change({ keys: [...new Set([...before, ...(await productKeys(db, productIds))])] }),
    /** Keys of these products as they are now: read before a write that may move them between lists. */
    productKeys: (productIds: readonly number[]) => productKeys(db, productIds),
    /**
     * After the stock of these orders' products moved (placed, cancelled, expired, paid late,
     * refunded): their answers are dropped at once, pages showing them within STOCK_GRACE_MS.
     */
    ordersChanged: async (orderIds: readonly number[]) =>
      catalog.stockChanged(await orderProductIds(db, orderIds)),
    /** After these products' stock moved (see ordersChanged). */
    stockChanged: async (productIds: readonly number[]) => {
      if (productIds.length === 0) return;
      await change({ keys: await stockKeys(productIds), stockOnly: true });
    },
    /**
     * The one place a write's change reaches the caches, the CDN and the other instances: the
     * catalogue writes (`writes`, catalog-writes.ts) and the jobs hand it what they changed.
     */
    apply: async (write: CatalogWrite) => {
      if (write === null) return;
      if ('everything' in write) await catalog.invalidate();
      else if ('products' in write) await catalog.productsChanged(write.products, write.before);
      else if ('stockOf' in write) await catalog.stockChanged(write.stockOf);
      else await catalog.ordersChanged(write.ordersOf);
    },
    /** What changed, by key: the page cache reads freshness from it. */
    changes,
    /** False while caches must not keep anything (see catalog/invalidation.ts). */
    canKeep: invalidation.canKeep,
  };

  const partners = { list: (locale: Locale) => listPartners(db, locale) };
  const sitemap = {
    /** `/sitemap.xml`, or one of its parts; null for a part that does not exist. */
    async file(part: string | null) {
      const [initial, products] = await Promise.all([catalog.initial(DEFAULT_LOCALE), listProductLinks(db)]);
      return sitemapFile(sitemapEntries(initial.value, products), config.publicUrl, part);
    },
  };

  const feedback = {
    async submit(input: FeedbackInput, context: { ip: string; locale: Locale }) {
      await rateLimits.consume('feedback', context.ip, input.email);
      await submitFeedback(db, input, { ...context, shop: mailShop });
    },
  };

  /** Delivery quotes through a 10-minute cache: `delivery.quote({ method, country, zip, weightGrams, orderSumKopecks })`. */
  const delivery = createDeliveryQuotes(config.delivery);

  /** What the back office's menu shows on every screen. */
  const backOffice = { ordersToShip: () => ordersToShip(db) };

  return {
    db,
    config,
    backOffice,
    usdRate,
    reloadUsdRate: options.reloadUsdRate ?? (async () => {}),
    catalog,
    /** The writes that change what the shop shows, each applying its change (catalog-writes.ts). */
    writes: catalogWrites(db, catalog),
    partners,
    sitemap,
    feedback,
    rateLimits,
    mailShop,
    delivery,
    close: async () => {
      releaseClock.close();
      await purge?.close();
      await invalidation.close();
    },
    storage,
  };
}

export type Services = ReturnType<typeof createServices>;
