import type { Redis } from 'ioredis';
import type {
  InitialResponse,
  ProductListResponse,
  ProductResponse,
  SearchSuggestions,
} from '../contract/catalog.ts';
import type { FeedbackInput } from '../contract/feedback.ts';
import { DEFAULT_LOCALE, type Locale } from '../contract/locale.ts';
import { type ListView, WHOLE_LIST } from '../contract/shop.ts';
import { ordersToShip } from './admin/orders.ts';
import { createCatalogCache } from './catalog/cache.ts';
import { type CatalogInvalidation, localInvalidation, redisInvalidation } from './catalog/invalidation.ts';
import { suggestSearch } from './catalog/search.ts';
import { recordSearch } from './catalog/search-stats.ts';
import { normaliseSearchText } from './catalog/search-text.ts';
import {
  cardsInOrder,
  getProduct,
  listCategories,
  listCategoryPictures,
  listProducts,
  listProjects,
  listWeekProducts,
  type SearchHelp,
  searchHelp,
} from './catalog/service.ts';
import { listProductLinks, sitemapEntries, sitemapFile } from './catalog/sitemap.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createDeliveryQuotes } from './delivery/service.ts';
import { submitFeedback } from './feedback/service.ts';
import { createStorage, type ObjectStorage } from './files/storage.ts';
import { counter } from './metrics.ts';
import { listPartners } from './partners/service.ts';
import { createRateLimits } from './security/rate-limits.ts';

type Answer<T> = Omit<T, 'success'>;

const catalogInvalidations = counter({
  name: 'vitrina_catalog_invalidations_total',
  help: 'Catalogue caches emptied: after a write here (local), or a message from another instance or a Redis reconnect (remote)',
  labelNames: ['origin'],
});

/** A search's first page as it is: what the search page shows first, and what analytics count. */
const FIRST_PAGE: ListView = { ...WHOLE_LIST, page: 1 };

const viewKey = (view: ListView) =>
  `${view.sort}:${view.projectId}:${view.categoryId}:${view.size.toLowerCase()}:${view.page ?? 'all'}`;

/**
 * The domain services bound to one database, as the HTTP routes and the React Router loaders use
 * them. Catalogue reads go through the read-through cache.
 */
export function createServices(options: {
  db: Database;
  config: Config;
  usdRate: () => number;
  redis?: Redis;
  log?: (message: string) => void;
  /** Where uploads live; by default the one `config.storage` names. */
  storage?: ObjectStorage;
}) {
  const { db, config, usdRate, redis } = options;
  const storage = options.storage ?? createStorage(config.storage);
  const rateLimits = createRateLimits({ redis, multiplier: config.rateLimitMultiplier });
  const mailShop = { email: config.shopEmail, url: config.publicUrl, locale: config.shopLocale };
  // Several instances share one Redis: a write on one empties the caches of all.
  const invalidation: CatalogInvalidation = redis
    ? redisInvalidation({
        redis,
        onRemoteChange: () => {
          catalogInvalidations.inc({ origin: 'remote' });
          cache.invalidate();
        },
        log: options.log,
      })
    : localInvalidation();
  const cache = createCatalogCache({ canKeep: invalidation.canKeep });

  const catalog = {
    initial: (locale: Locale) =>
      cache.remember<Answer<InitialResponse>>(`initial:${locale}`, async () => {
        const [categories, projects, week] = await Promise.all([
          listCategories(db, locale),
          listProjects(db, locale),
          listWeekProducts(db, locale),
        ]);
        return { currencyUsd: usdRate(), categories, projects, week };
      }),
    /** A picture file per category id, for the home page's tiles. */
    categoryPictures: () => cache.remember('category-pictures', () => listCategoryPictures(db)),
    /** Every visible product, as a shop list. */
    all: (locale: Locale, view: ListView) =>
      cache.remember<Answer<ProductListResponse>>(`all:${locale}:${viewKey(view)}`, () =>
        listProducts(db, locale, { kind: 'all' }, view),
      ),
    /**
     * The visible ones of these products, in this order (a shopper's recently viewed). Not cached:
     * every shopper's list is their own.
     */
    cards: (locale: Locale, ids: number[]) => cardsInOrder(db, locale, ids),
    /** A shop list; `view` sorts, filters and picks a page (default: the whole list as the spec's call answers). */
    project: (locale: Locale, link: string, view: ListView = WHOLE_LIST) =>
      cache.remember<Answer<ProductListResponse>>(`project:${locale}:${link}:${viewKey(view)}`, () =>
        listProducts(db, locale, { kind: 'project', link }, view),
      ),
    category: (locale: Locale, link: string, view: ListView = WHOLE_LIST) =>
      cache.remember<Answer<ProductListResponse>>(`category:${locale}:${link}:${viewKey(view)}`, () =>
        listProducts(db, locale, { kind: 'category', link }, view),
      ),
    search: (locale: Locale, text: string, view: ListView = WHOLE_LIST) =>
      cache.remember<Answer<ProductListResponse>>(
        `search:${locale}:${text.trim().toLowerCase()}:${viewKey(view)}`,
        () => listProducts(db, locale, { kind: 'search', text }, view),
      ),
    /** Suggestions while typing; texts are cached as search reads them. */
    suggest: (locale: Locale, text: string) =>
      cache.remember<SearchSuggestions>(
        `suggest:${locale}:${normaliseSearchText(text)}:${/\s$/u.test(text)}`,
        () => suggestSearch(db, locale, text),
      ),
    /** "Did you mean" and popular products, for a search that found nothing. */
    searchHelp: (locale: Locale, text: string) =>
      cache.remember<SearchHelp>(`search-help:${locale}:${normaliseSearchText(text)}`, () =>
        searchHelp(db, locale, text),
      ),
    /** Counts a search for the back office, with what its first page found (cached by then). */
    countSearch: async (locale: Locale, text: string) => {
      const found = await catalog.search(locale, text, FIRST_PAGE);
      await recordSearch(db, text, found.value.paging?.total ?? 0, new Date());
    },
    product: (locale: Locale, link: string) =>
      cache.remember<Answer<ProductResponse>>(`product:${locale}:${link}`, () =>
        getProduct(db, locale, link),
      ),
    /**
     * Call after any write to the catalogue, stock or rate: empties this instance's caches and
     * resolves once the other instances have been told.
     */
    invalidate: () => {
      catalogInvalidations.inc({ origin: 'local' });
      cache.invalidate();
      return invalidation.publish();
    },
    /** Changes on every invalidation, here or elsewhere; the page cache keys on it. */
    get generation() {
      return cache.generation;
    },
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
    catalog,
    partners,
    sitemap,
    feedback,
    rateLimits,
    mailShop,
    delivery,
    close: () => invalidation.close(),
    storage,
  };
}

export type Services = ReturnType<typeof createServices>;
