import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import {
  type Category,
  type Counts,
  PAGE_SIZE,
  type Paging,
  type ProductCard,
  type Project,
  type SizeSection,
} from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { ListSort, ListView } from '../../contract/shop.ts';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import {
  categories,
  productCategories,
  productImages,
  products,
  productVariants,
  projects,
} from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import {
  type CardRow,
  cardJson,
  cardsInOrder,
  LETTER_SIZES,
  selectCards,
  sizeName,
  sizeValuesInStock,
  toCard,
} from './cards.ts';
import { localized, statusOf } from './product-view.ts';
import { isAvailable, isListed, isReleased, isVisible } from './release.ts';
import { closestNames, planQuery, planSearch, popularProductIds } from './search.ts';
import { unitPriceSql, variantUnitPrice } from './variants.ts';

/**
 * The catalogue as shoppers see it: visible projects, categories and products only. A product is
 * visible when it and its project are; hidden categories never appear in a product's category list.
 */

const _SIMILAR_LIMIT = 8;
const WEEK_LIMIT = 12;
/** A search list holds the best this many matches: enough pages for anyone, bounded work per search. */
const SEARCH_LIMIT = 1000;

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
