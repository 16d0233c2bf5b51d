import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import {
  type Category,
  type Counts,
  PAGE_SIZE,
  type Paging,
  type ProductCard,
  type ProductDetail,
  type ProductOption,
  type ProductVariant,
  type Project,
  type SizeSection,
  STATUS_VISIBLE,
  STATUS_WEEK_SALE,
} from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { ListSort, ListView } from '../../contract/shop.ts';
import type { Executor } from '../db/client.ts';
import {
  categories,
  productCategories,
  productImages,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
  projects,
  reviews,
} from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { reviewSummary } from '../reviews/service.ts';
import { productLimit } from './drop-rules.ts';
import { productViewColumns } from './product-view.ts';
import { isAvailable, isListed, isReleased, isVisible } from './release.ts';
import { sanitizeDescription } from './sanitize.ts';
import { closestNames, planQuery, planSearch, popularProductIds } from './search.ts';
import { unitPriceSql, variantPrice, variantSale, variantUnitPrice } from './variants.ts';

/**
 * The catalogue as shoppers see it: visible projects, categories and products only. A product is
 * visible when it and its project are; hidden categories never appear in a product's category list.
 */

const SIMILAR_LIMIT = 8;
const WEEK_LIMIT = 12;
/** A search list holds the best this many matches: enough pages for anyone, bounded work per search. */
const SEARCH_LIMIT = 1000;

/** Rows of a raw statement; PGlite and node-postgres both answer `{ rows }`. */
const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

const localized = <Ru, En>(locale: Locale, ru: Ru, en: En): Ru | En => (locale === 'ru' ? ru : en);

const statusOf = (visible: boolean, weekSale = false) =>
  (visible ? STATUS_VISIBLE : 0) | (weekSale ? STATUS_WEEK_SALE : 0);

function cardColumns(locale: Locale, now: Date) {
  return {
    ...productViewColumns(locale, now),
    projectId: products.projectId,
    weekSale: products.weekSale,
    // Hidden categories are listed once per statement: joined to categories, the planner scanned
    // all of them once per card.
    categoryIds: sql<number[]>`coalesce((select array_agg(pc.category_id order by pc.category_id)
      from ${productCategories} pc
      where pc.product_id = ${products.id}
        and pc.category_id <> all(array(select c.id from ${categories} c where not c.visible))), '{}')`,
    // The lowest price a variant sells for, only when the variants' prices differ ("from 1 990 ₽").
    fromPrice: sql<number | null>`(select case when min(pays) < max(pays) then min(pays) end
      from (select ${variantUnitPrice} as pays from ${productVariants}
        where ${productVariants.productId} = ${products.id}) as variant_prices)`,
    sizes: sql<string[]>`coalesce((select array_agg(${sizeName(locale)} order by ov.position, ov.id)
      from ${sizeValuesInStock(sql`${products.id}`)}), '{}')`,
    hasOptions: sql<boolean>`exists (select 1 from ${productOptions} o where o.product_id = ${products.id})`,
    // Announced products' cards ("coming soon") say when they go on sale; null once released.
    releaseAt: sql<string | Date | null>`case when ${products.releaseAt} > ${now.toISOString()}::timestamptz
      then ${products.releaseAt} end`,
    // The stars of a card: visible reviews, averaged to one decimal as the product page shows them.
    ratingAverage: sql<number | null>`(select round(avg(r.rating), 1)::float8 from ${reviews} r
      where r.product_id = ${products.id} and not r.hidden)`,
    ratingCount: sql<number>`(select count(*)::int from ${reviews} r
      where r.product_id = ${products.id} and not r.hidden)`,
  };
}

/**
 * Letter sizes in their order: products number their own values, so the size filter, which gathers
 * sizes over many products, orders these first and the rest by their usual position.
 */
const LETTER_SIZES = sql.raw(`array['XXS','XS','S','M','L','XL','XXL','2XL','XXXL','3XL','4XL']::text[]`);

const sizeName = (locale: Locale) => sql.raw(locale === 'ru' ? 'ov.value_ru' : 'ov.value_en');

/**
 * FROM items of the size values (`ov`) of a product that some variant in stock has: what a shopper
 * can buy in, for the cards and the size filter.
 */
const sizeValuesInStock = (productId: SQL) => sql`${productOptions} o
  join ${productOptionValues} ov on ov.option_id = o.id
  where o.product_id = ${productId} and o.kind = 'size'
    and exists (select 1 from ${productVariantValues} pvv
      join ${productVariants} v on v.id = pvv.variant_id
      where pvv.option_value_id = ov.id and v.quantity > 0)`;

/** The card columns as `json_build_object` arguments: a statement can answer its cards as JSON. */
const cardJson = (locale: Locale, now: Date) =>
  sql.join(
    Object.entries(cardColumns(locale, now)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
    sql`, `,
  );

type CardRow = {
  id: number;
  link: string;
  name: string;
  image: string | null;
  price: number;
  sale: number | null;
  quantity: number;
  envisioned: boolean;
  orderable: boolean;
  projectId: number;
  weekSale: boolean;
  categoryIds: number[];
  fromPrice: number | null;
  sizes: string[];
  hasOptions: boolean;
  releaseAt: string | Date | null;
  ratingAverage: number | null;
  ratingCount: number;
};

function toCard(row: CardRow): ProductCard {
  return {
    id: row.id,
    link: row.link,
    name: row.name,
    image: row.image,
    price: kopecksToRoubles(row.price),
    sale: row.sale === null ? null : kopecksToRoubles(row.sale),
    inStock: row.orderable ? row.quantity : 0,
    envisioned: row.envisioned,
    project_id: row.projectId,
    categories: row.categoryIds.map(Number),
    status: statusOf(true, row.weekSale),
    fromPrice: row.fromPrice === null ? null : kopecksToRoubles(row.fromPrice),
    sizes: row.sizes,
    hasOptions: row.hasOptions,
    releaseAt: row.releaseAt === null ? null : new Date(row.releaseAt).toISOString(),
    rating: {
      average: row.ratingAverage === null ? null : Number(row.ratingAverage),
      count: Number(row.ratingCount),
    },
  };
}

/**
 * Cards of listed products (visible and released) only, what a shopper may find and buy; or, with
 * `shown` set to the announced ones, the "coming soon" cards.
 */
async function selectCards(
  db: Executor,
  locale: Locale,
  now: Date,
  where: SQL | undefined,
  orderBy: SQL[],
  limit?: number,
  shown: SQL = isListed(now),
): Promise<ProductCard[]> {
  const query = db
    .select(cardColumns(locale, now))
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(shown, where))
    .orderBy(...orderBy);
  const rows = await (limit === undefined ? query : query.limit(limit));
  return rows.map(toCard);
}

/**
 * The cards of `ids` that are listed (visible and released), in that order (the order a list
 * statement or a shopper chose).
 */
export async function cardsInOrder(
  db: Executor,
  locale: Locale,
  ids: number[],
  now: Date = new Date(),
): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const cards = await selectCards(db, locale, now, inArray(products.id, ids), []);
  const byId = new Map(cards.map((card) => [card.id, card]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const defaultOrder = [asc(products.position), asc(products.id)];

export async function listProjects(db: Executor, locale: Locale): Promise<Project[]> {
  const rows = await db
    .select()
    .from(projects)
    .where(eq(projects.visible, true))
    .orderBy(asc(projects.position), asc(projects.id));
  return rows.map((row) => ({
    id: row.id,
    name: localized(locale, row.nameRu, row.nameEn),
    link: row.link,
    image: row.image,
    status: statusOf(row.visible),
  }));
}

export async function listCategories(db: Executor, locale: Locale): Promise<Category[]> {
  const rows = await db
    .select()
    .from(categories)
    .where(eq(categories.visible, true))
    .orderBy(asc(categories.position), asc(categories.id));
  return rows.map((row) => ({
    id: row.id,
    name: localized(locale, row.nameRu, row.nameEn),
    link: row.link,
    status: statusOf(row.visible),
  }));
}

/**
 * A picture for each visible category that has one: the first image of its visible product with
 * the lowest id that has images. Read through the category index, one short walk per category,
 * however many products a category holds.
 */
export async function listCategoryPictures(
  db: Executor,
  now: Date = new Date(),
): Promise<Record<number, string>> {
  const rows = rowsOf<{ id: number; file: string }>(
    await db.execute(sql`select ${categories.id} as id, picked.file
      from ${categories}
      cross join lateral (
        select (select pi.file from ${productImages} pi where pi.product_id = pc.product_id
            order by pi.position, pi.id limit 1) as file
        from ${productCategories} pc
        join ${products} on ${products.id} = pc.product_id
        join ${projects} on ${projects.id} = ${products.projectId}
        where pc.category_id = ${categories.id} and ${isListed(now)}
          and exists (select 1 from ${productImages} pi where pi.product_id = pc.product_id)
        order by pc.product_id
        limit 1
      ) as picked
      where ${categories.visible}`),
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.file]));
}

/** Featured (week-sale) products for the home page. */
export function listWeekProducts(
  db: Executor,
  locale: Locale,
  now: Date = new Date(),
): Promise<ProductCard[]> {
  return selectCards(db, locale, now, eq(products.weekSale, true), defaultOrder, WEEK_LIMIT);
}

/** Where a "coming soon" section is shown: the home page, a project's or category's page, a search. */
export type UpcomingScope =
  | { kind: 'all' }
  | { kind: 'project'; link: string }
  | { kind: 'category'; link: string }
  | { kind: 'search'; text: string };

const UPCOMING_LIMIT = 12;

/**
 * Announced products (visible, their release still to come), soonest first: listed nowhere else
 * until their release (ADR 0041), they are shown here so shoppers find them and ask to be reminded.
 * A search matches a part of either name.
 */
export function listUpcoming(
  db: Executor,
  locale: Locale,
  scope: UpcomingScope,
  now: Date = new Date(),
): Promise<ProductCard[]> {
  const within =
    scope.kind === 'project'
      ? eq(projects.link, scope.link)
      : scope.kind === 'category'
        ? sql`exists (select 1 from ${productCategories} pc join ${categories} c on c.id = pc.category_id
            where pc.product_id = ${products.id} and c.visible and c.link = ${scope.link})`
        : scope.kind === 'search'
          ? sql`(${products.nameRu} || ' ' || ${products.nameEn}) ilike ${`%${scope.text.trim().replace(/[\\%_]/g, (character) => `\\${character}`)}%`}`
          : undefined;
  return selectCards(
    db,
    locale,
    now,
    within,
    [asc(products.releaseAt), asc(products.id)],
    UPCOMING_LIMIT,
    sql`(${isVisible} and not ${isReleased(now)})`,
  );
}

export type ListScope =
  | { kind: 'all' }
  | { kind: 'project'; link: string }
  | { kind: 'category'; link: string }
  | { kind: 'search'; text: string };

export interface ProductList {
  title: string;
  products: ProductCard[];
  counts: Counts;
  /** Projects and categories that have products in the list, for the side sections. */
  projects: Project[];
  categories: Category[];
  sizes: SizeSection[];
  /** Roubles: the lowest and highest price paid under the filters but the price range; null when none. */
  priceRange: { min: number; max: number } | null;
  paging?: Paging;
}

/** How a scope narrows the visible products, and what "default" order means for it. */
interface ScopeQuery {
  title: string;
  /** Common table expressions the condition needs, with a trailing comma; or empty. */
  with: SQL;
  /** Extra FROM items for the condition, with a leading comma; or empty. */
  from: SQL;
  where: SQL;
  rank: SQL;
  /** Order of "default" over the list's columns (`position`, `id`, `rank`). */
  order: SQL;
  /** Longest list the scope allows, or undefined for all its products. */
  limit?: number;
}

async function scopeQuery(db: Executor, locale: Locale, scope: ListScope): Promise<ScopeQuery> {
  const byPosition = { with: sql``, from: sql``, rank: sql`0`, order: sql`position, id` };
  // Every visible product; the page names the list in the shopper's language.
  if (scope.kind === 'all') return { ...byPosition, title: '', where: sql`true` };
  if (scope.kind === 'project') {
    const [project] = await db
      .select()
      .from(projects)
      .where(and(eq(projects.link, scope.link), eq(projects.visible, true)));
    if (!project) throw new NotFound('Project not found', { link: ['No such project'] }, 'page-not-found');
    return {
      ...byPosition,
      title: localized(locale, project.nameRu, project.nameEn),
      where: sql`${products.projectId} = ${project.id}`,
    };
  }
  if (scope.kind === 'category') {
    const [category] = await db
      .select()
      .from(categories)
      .where(and(eq(categories.link, scope.link), eq(categories.visible, true)));
    if (!category) throw new NotFound('Category not found', { link: ['No such category'] }, 'page-not-found');
    return {
      ...byPosition,
      title: localized(locale, category.nameRu, category.nameEn),
      where: sql`exists (select 1 from ${productCategories} pc
        where pc.product_id = ${products.id} and pc.category_id = ${category.id})`,
    };
  }
  const plan = await planSearch(db, scope.text);
  return {
    title: scope.text.trim(),
    with: sql`search_query as (select ${planQuery(plan)} as query),`,
    from: sql`, search_query`,
    where: sql`${products.searchVector} @@ search_query.query`,
    rank: sql`ts_rank(${products.searchVector}, search_query.query)`,
    order: sql`rank desc, id`,
    limit: SEARCH_LIMIT,
  };
}

/** The order of a sort over the list's columns; `pays` is the sale price when on sale. */
function sortOrder(sort: ListSort, defaultOrder: SQL): SQL {
  if (sort === 'asc') return sql`pays, ${defaultOrder}`;
  if (sort === 'desc') return sql`pays desc, ${defaultOrder}`;
  return defaultOrder;
}

/** A list of SQL values, for `in (…)`. */
const valuesOf = (values: readonly (number | string)[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * A shop list (spec section 4) in one statement: the scope's visible products, counted per project,
 * category, size and availability, then filtered, sorted and cut to the page. Only the page's
 * cards are read in full, by the same statement (as JSON).
 *
 * Values within a filter group are alternatives, the groups apply together (ADR 0062). A value's
 * count is what the list holds with that value under every other group's filter: what choosing it
 * alone in its group would show, so a 0 is a choice that would add nothing.
 */
export async function listProducts(
  db: Executor,
  locale: Locale,
  scope: ListScope,
  view: ListView,
  now: Date = new Date(),
): Promise<ProductList> {
  const query = await scopeQuery(db, locale, scope);
  // Each side section counts what choosing one of its items would show: the list under every
  // other active filter (availability and price included), its own section's filter left out.
  const sizes = view.sizes.map((size) => size.toLowerCase());
  const { min, max } = view.price;
  const priceRange =
    min === null && max === null
      ? undefined
      : sql.join(
          [
            min === null ? undefined : sql`high >= ${min}`,
            max === null ? undefined : sql`low <= ${max}`,
          ].filter((condition) => condition !== undefined),
          sql` and `,
        );
  // What each product's variants sell for, only when a range is chosen: one index lookup per
  // product of the list, which a list without a range does not pay for.
  const variantPrices = sql`cross join lateral (select min(variant_pays) as low, max(variant_pays) as high
    from (select ${variantUnitPrice} as variant_pays from ${productVariants}
      where ${productVariants.productId} = ${products.id}) as each_variant) as variant_prices`;
  const filters = {
    project: view.projectIds.length > 0 ? sql`project_id in (${valuesOf(view.projectIds)})` : undefined,
    category:
      view.categoryIds.length > 0
        ? sql`exists (select 1 from ${productCategories} pc join ${categories} on ${categories.id} = pc.category_id
          where pc.product_id = list.id and pc.category_id in (${valuesOf(view.categoryIds)}) and ${categories.visible})`
        : undefined,
    size:
      sizes.length > 0
        ? sql`exists (select 1 from ${sizeValuesInStock(sql`list.id`)}
          and (lower(ov.value_en) in (${valuesOf(sizes)}) or lower(ov.value_ru) in (${valuesOf(sizes)})))`
        : undefined,
    available: view.available ? sql`available` : undefined,
    // Some variant sells within the range: its prices overlap it.
    price: priceRange,
  };
  const filtersBut = (section?: keyof typeof filters) => {
    const kept = Object.entries(filters).flatMap(([name, filter]) =>
      name === section || filter === undefined ? [] : [filter],
    );
    return kept.length > 0 ? sql.join(kept, sql` and `) : sql`true`;
  };
  const order = sortOrder(view.sort, query.order);
  const pageLimit =
    view.page === undefined ? sql`` : sql`limit ${PAGE_SIZE} offset ${(view.page - 1) * PAGE_SIZE}`;

  const statement = sql`with ${query.with}
    list as materialized (
      select ${products.id} as id, ${products.projectId} as project_id, ${products.position} as position,
        ${unitPriceSql(products)} as pays,
        ${priceRange === undefined ? sql`` : sql`variant_prices.low, variant_prices.high,`}
        ${isAvailable(now)} as available,
        ${query.rank} as rank
      from ${products} join ${projects} on ${projects.id} = ${products.projectId}
        ${priceRange === undefined ? sql`` : variantPrices}
        ${query.from}
      where ${isListed(now)} and ${query.where}
      ${query.limit === undefined ? sql`` : sql`order by ${query.order} limit ${query.limit}`}
    ),
    shown as (select * from list where ${filtersBut()}),
    page as (
      select id, row_number() over (order by ${order}) as n from shown order by ${order} ${pageLimit}
    )
    select
      (select count(*) from shown)::int as total,
      (select count(*) filter (where available and ${filtersBut('available')}) from list)::int as available,
      (select json_build_object('min', min(pays), 'max', max(pays)) from list
        where ${filtersBut('price')} having count(*) > 0) as price_range,
      (select coalesce(json_agg(json_build_object('id', ${projects.id},
          'name', ${localized(locale, projects.nameRu, projects.nameEn)}, 'link', ${projects.link},
          'image', ${projects.image}, 'count', per_project.n) order by ${projects.position}, ${projects.id}), '[]')
        from (select project_id, count(*) filter (where ${filtersBut('project')}) as n from list
          group by project_id) as per_project
        join ${projects} on ${projects.id} = per_project.project_id) as projects,
      -- lateral: one index lookup per product of the list, never a pass over all category links
      (select coalesce(json_agg(json_build_object('id', ${categories.id},
          'name', ${localized(locale, categories.nameRu, categories.nameEn)}, 'link', ${categories.link},
          'count', per_category.n) order by ${categories.position}, ${categories.id}), '[]')
        from (select linked.category_id, count(*) filter (where ${filtersBut('category')}) as n from list
          cross join lateral (select pc.category_id from ${productCategories} pc where pc.product_id = list.id) as linked
          group by linked.category_id) as per_category
        join ${categories} on ${categories.id} = per_category.category_id and ${categories.visible}) as categories,
      -- sizes by their English name; lateral, and only products with a size option go further
      (select coalesce(json_agg(json_build_object('key', per_size.key, 'name', per_size.name,
          'count', per_size.n) order by array_position(${LETTER_SIZES}, upper(per_size.key)), per_size.position,
          per_size.key), '[]')
        from (select sized.key, min(sized.name) as name, min(sized.position) as position,
            count(*) filter (where ${filtersBut('size')}) as n
          from list cross join lateral (select ov.value_en as key,
              ${sizeName(locale)} as name, ov.position
            from ${sizeValuesInStock(sql`list.id`)}) as sized
          group by sized.key) as per_size) as sizes,
      -- the page's cards in full, in the page's order: no second round trip for them
      (select coalesce(json_agg(json_build_object(${cardJson(locale, now)}) order by page.n), '[]')
        from page join ${products} on ${products.id} = page.id
        join ${projects} on ${projects.id} = ${products.projectId}) as cards`;

  const [summary] = rowsOf<{
    total: number;
    available: number;
    price_range: { min: number; max: number } | null;
    projects: Array<Omit<Project, 'status'> & { count: number }>;
    categories: Array<Omit<Category, 'status'> & { count: number }>;
    sizes: Array<SizeSection & { count: number }>;
    cards: CardRow[];
  }>(await db.execute(statement));
  if (!summary) throw new Error('the list statement answered no row');
  const counted = <T extends { count: number }>(sections: T[], keyOf: (section: T) => string | number) =>
    Object.fromEntries(sections.map((section) => [keyOf(section), section.count]));
  const visibleSection = <T extends { count: number }>({ count: _, ...section }: T) => ({
    ...section,
    status: statusOf(true),
  });
  return {
    title: query.title,
    products: summary.cards.map(toCard),
    counts: {
      projects: counted(summary.projects, (project) => project.id),
      categories: counted(summary.categories, (category) => category.id),
      sizes: counted(summary.sizes, (size) => size.key),
      available: Number(summary.available),
    },
    projects: summary.projects.map(visibleSection),
    categories: summary.categories.map(visibleSection),
    sizes: summary.sizes.map(({ key, name }) => ({ key, name })),
    priceRange: summary.price_range && {
      min: kopecksToRoubles(Number(summary.price_range.min)),
      max: kopecksToRoubles(Number(summary.price_range.max)),
    },
    ...(view.page === undefined
      ? {}
      : {
          paging: {
            page: view.page,
            pages: Math.max(1, Math.ceil(summary.total / PAGE_SIZE)),
            perPage: PAGE_SIZE,
            total: summary.total,
          },
        }),
  };
}

/**
 * A visible product's page: released or only announced (then `releaseAt` is ahead and nothing can
 * be ordered yet), with its per-customer limit when it has one.
 */
export async function getProduct(
  db: Executor,
  locale: Locale,
  link: string,
  now: Date = new Date(),
): Promise<{ product: ProductDetail; similar: ProductCard[] }> {
  const [row] = await db
    .select({
      ...cardColumns(locale, now),
      description: localized(locale, products.descriptionRu, products.descriptionEn),
      weight: products.weight,
      releaseAt: products.releaseAt,
      perCustomerLimit: productLimit,
      project: { id: projects.id, nameRu: projects.nameRu, nameEn: projects.nameEn, link: projects.link },
    })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(isVisible, eq(products.link, link)));
  if (!row) throw new NotFound('Product not found', { link: ['No such product'] }, 'page-not-found');

  const card = toCard(row);
  const [pictures, categoryList, similar, rating, options, variants, sizeGuide] = await Promise.all([
    db
      .select({ file: productImages.file, optionValue: productImages.optionValueId })
      .from(productImages)
      .where(eq(productImages.productId, row.id))
      .orderBy(asc(productImages.position), asc(productImages.id)),
    card.categories.length === 0
      ? Promise.resolve([])
      : db
          .select({
            id: categories.id,
            name: localized(locale, categories.nameRu, categories.nameEn),
            link: categories.link,
          })
          .from(categories)
          .where(inArray(categories.id, card.categories))
          .orderBy(asc(categories.position), asc(categories.id)),
    listSimilar(db, locale, card, now),
    reviewSummary(db, row.id),
    card.hasOptions ? listOptions(db, locale, row.id) : Promise.resolve([]),
    listVariants(db, row.id, row.orderable),
    card.hasOptions ? findSizeGuide(db, locale, card.categories) : Promise.resolve(null),
  ]);

  return {
    product: {
      ...card,
      desc: row.description,
      images: pictures.map((picture) => picture.file),
      pictures,
      options,
      variants,
      sizeGuide,
      weight: row.weight,
      releaseAt: row.releaseAt === null ? null : new Date(row.releaseAt).toISOString(),
      perCustomerLimit: row.perCustomerLimit,
      project: {
        id: row.project.id,
        name: localized(locale, row.project.nameRu, row.project.nameEn),
        link: row.project.link,
      },
      categoryList,
      rating,
    },
    similar,
  };
}

/** A product's options with their values, in the picker's order. */
async function listOptions(db: Executor, locale: Locale, productId: number): Promise<ProductOption[]> {
  const rows = await db
    .select({
      optionId: productOptions.id,
      kind: productOptions.kind,
      name: localized(locale, productOptions.nameRu, productOptions.nameEn),
      id: productOptionValues.id,
      value: localized(locale, productOptionValues.valueRu, productOptionValues.valueEn),
      key: productOptionValues.valueEn,
      swatch: productOptionValues.swatch,
    })
    .from(productOptions)
    .innerJoin(productOptionValues, eq(productOptionValues.optionId, productOptions.id))
    .where(eq(productOptions.productId, productId))
    .orderBy(
      asc(productOptions.position),
      asc(productOptions.id),
      asc(productOptionValues.position),
      asc(productOptionValues.id),
    );
  const options = new Map<number, ProductOption>();
  for (const { optionId, kind, name, ...value } of rows) {
    const option = options.get(optionId) ?? { id: optionId, kind, name, values: [] };
    option.values.push(value);
    options.set(optionId, option);
  }
  return [...options.values()];
}

/** What can be bought of a product: its variants with their option values, prices and stock. */
async function listVariants(db: Executor, productId: number, orderable: boolean): Promise<ProductVariant[]> {
  const rows = await db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      price: variantPrice,
      sale: variantSale,
      quantity: productVariants.quantity,
      perCustomerLimit: productVariants.perCustomerLimit,
      values: sql<number[]>`coalesce((select array_agg(pvv.option_value_id order by o.position, o.id)
        from ${productVariantValues} pvv
        join ${productOptionValues} ov on ov.id = pvv.option_value_id
        join ${productOptions} o on o.id = ov.option_id
        where pvv.variant_id = ${productVariants.id}), '{}')`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return rows.map((variant) => ({
    id: variant.id,
    sku: variant.sku,
    values: variant.values.map(Number),
    price: kopecksToRoubles(variant.price),
    sale: variant.sale === null ? null : kopecksToRoubles(variant.sale),
    inStock: orderable && variant.price > 0 ? variant.quantity : 0,
    perCustomerLimit: variant.perCustomerLimit,
  }));
}

/** The size guide of the first of the product's (visible) categories that has one, sanitized. */
async function findSizeGuide(db: Executor, locale: Locale, categoryIds: number[]): Promise<string | null> {
  if (categoryIds.length === 0) return null;
  const guide = localized(locale, categories.sizeGuideRu, categories.sizeGuideEn);
  const [row] = await db
    .select({ guide })
    .from(categories)
    .where(and(inArray(categories.id, categoryIds), ne(guide, '')))
    .orderBy(asc(categories.position), asc(categories.id))
    .limit(1);
  // Staff HTML is cleaned when written; cleaned again here, as a table is all a guide may hold.
  return row ? sanitizeDescription(row.guide) || null : null;
}
/**
 * Products sharing the most categories with this one, then those of the same project; in stock
 * first. Those sharing a category are counted from the category index; the same project's others
 * are read only when these are fewer than SIMILAR_LIMIT.
 */
async function listSimilar(
  db: Executor,
  locale: Locale,
  product: ProductCard,
  now: Date,
): Promise<ProductCard[]> {
  const available = isAvailable(now);
  const sharing =
    product.categories.length === 0
      ? []
      : rowsOf<{ id: number }>(
          await db.execute(sql`select ${products.id} as id
            from (select pc.product_id, count(*) as shared from ${productCategories} pc
              where pc.category_id in (${sql.join(product.categories, sql`, `)}) and pc.product_id <> ${product.id}
              group by pc.product_id) as sharing
            join ${products} on ${products.id} = sharing.product_id
            join ${projects} on ${projects.id} = ${products.projectId}
            where ${isListed(now)}
            order by sharing.shared desc, (${products.projectId} = ${product.project_id}) desc, ${available} desc,
              ${products.id}
            limit ${SIMILAR_LIMIT}`),
        ).map((row) => row.id);
  const sameProject =
    sharing.length === SIMILAR_LIMIT
      ? []
      : await selectCards(
          db,
          locale,
          now,
          and(
            eq(products.projectId, product.project_id),
            ne(products.id, product.id),
            sharing.length > 0 ? sql`${products.id} not in (${sql.join(sharing, sql`, `)})` : undefined,
          ),
          [sql`${available} desc`, asc(products.id)],
          SIMILAR_LIMIT - sharing.length,
        );
  return [...(await cardsInOrder(db, locale, sharing, now)), ...sameProject];
}

export interface SearchHelp {
  /** Names of the products closest to the text, for "did you mean". */
  didYouMean: Array<{ name: string; link: string }>;
  popular: ProductCard[];
}

/** What the search page offers instead of an empty list when a search finds nothing. */
export async function searchHelp(
  db: Executor,
  locale: Locale,
  text: string,
  now: Date = new Date(),
): Promise<SearchHelp> {
  const [didYouMean, popular] = await Promise.all([
    closestNames(db, locale, text, now),
    popularProductIds(db, now),
  ]);
  return { didYouMean, popular: await cardsInOrder(db, locale, popular, now) };
}
