import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import {
  type Category,
  type Counts,
  PAGE_SIZE,
  type Paging,
  type ProductCard,
  type ProductDetail,
  type Project,
  STATUS_VISIBLE,
  STATUS_WEEK_SALE,
} from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { ListView, Sort } from '../../contract/shop.ts';
import type { Executor } from '../db/client.ts';
import { categories, productCategories, productImages, products, projects } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { reviewSummary } from '../reviews/service.ts';
import { productViewColumns } from './product-view.ts';
import { closestNames, planQuery, planSearch, popularProductIds } from './search.ts';

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

const visibleProduct = and(eq(products.visible, true), eq(projects.visible, true));

function cardColumns(locale: Locale) {
  return {
    ...productViewColumns(locale),
    projectId: products.projectId,
    weekSale: products.weekSale,
    // Hidden categories are listed once per statement: joined to categories, the planner scanned
    // all of them once per card.
    categoryIds: sql<number[]>`coalesce((select array_agg(pc.category_id order by pc.category_id)
      from ${productCategories} pc
      where pc.product_id = ${products.id}
        and pc.category_id <> all(array(select c.id from ${categories} c where not c.visible))), '{}')`,
  };
}

/** The card columns as `json_build_object` arguments: a statement can answer its cards as JSON. */
const cardJson = (locale: Locale) =>
  sql.join(
    Object.entries(cardColumns(locale)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
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
  projectId: number;
  weekSale: boolean;
  categoryIds: number[];
};

function toCard(row: CardRow): ProductCard {
  return {
    id: row.id,
    link: row.link,
    name: row.name,
    image: row.image,
    price: kopecksToRoubles(row.price),
    sale: row.sale === null ? null : kopecksToRoubles(row.sale),
    inStock: row.envisioned || row.price <= 0 ? 0 : row.quantity,
    envisioned: row.envisioned,
    project_id: row.projectId,
    categories: row.categoryIds.map(Number),
    status: statusOf(true, row.weekSale),
  };
}

async function selectCards(
  db: Executor,
  locale: Locale,
  where: SQL | undefined,
  orderBy: SQL[],
  limit?: number,
): Promise<ProductCard[]> {
  const query = db
    .select(cardColumns(locale))
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(visibleProduct, where))
    .orderBy(...orderBy);
  const rows = await (limit === undefined ? query : query.limit(limit));
  return rows.map(toCard);
}

/** The cards of `ids` that are visible, in that order (the order a list statement or a shopper chose). */
export async function cardsInOrder(db: Executor, locale: Locale, ids: number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const cards = await selectCards(db, locale, inArray(products.id, ids), []);
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
export async function listCategoryPictures(db: Executor): Promise<Record<number, string>> {
  const rows = rowsOf<{ id: number; file: string }>(
    await db.execute(sql`select ${categories.id} as id, picked.file
      from ${categories}
      cross join lateral (
        select (select pi.file from ${productImages} pi where pi.product_id = pc.product_id
            order by pi.position, pi.id limit 1) as file
        from ${productCategories} pc
        join ${products} on ${products.id} = pc.product_id
        join ${projects} on ${projects.id} = ${products.projectId}
        where pc.category_id = ${categories.id} and ${products.visible} and ${projects.visible}
          and exists (select 1 from ${productImages} pi where pi.product_id = pc.product_id)
        order by pc.product_id
        limit 1
      ) as picked
      where ${categories.visible}`),
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.file]));
}

/** Featured (week-sale) products for the home page. */
export function listWeekProducts(db: Executor, locale: Locale): Promise<ProductCard[]> {
  return selectCards(db, locale, eq(products.weekSale, true), defaultOrder, WEEK_LIMIT);
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
function sortOrder(sort: Sort, defaultOrder: SQL): SQL {
  if (sort === 'asc') return sql`pays, ${defaultOrder}`;
  if (sort === 'desc') return sql`pays desc, ${defaultOrder}`;
  return defaultOrder;
}

/**
 * A shop list (spec section 4) in one statement: the scope's visible products, counted per project
 * and per category, then filtered, sorted and cut to the page. Only the page's cards are read in
 * full, by the same statement (as JSON).
 */
export async function listProducts(
  db: Executor,
  locale: Locale,
  scope: ListScope,
  view: ListView,
): Promise<ProductList> {
  const query = await scopeQuery(db, locale, scope);
  const filters = [
    view.projectId ? sql`project_id = ${view.projectId}` : undefined,
    view.categoryId
      ? sql`exists (select 1 from ${productCategories} pc join ${categories} on ${categories.id} = pc.category_id
          where pc.product_id = list.id and pc.category_id = ${view.categoryId} and ${categories.visible})`
      : undefined,
    view.sort === 'available' ? sql`available` : undefined,
  ].filter((filter) => filter !== undefined);
  const order = sortOrder(view.sort, query.order);
  const pageLimit =
    view.page === undefined ? sql`` : sql`limit ${PAGE_SIZE} offset ${(view.page - 1) * PAGE_SIZE}`;

  const statement = sql`with ${query.with}
    list as materialized (
      select ${products.id} as id, ${products.projectId} as project_id, ${products.position} as position,
        coalesce(${products.sale}, ${products.price}) as pays,
        (${products.quantity} > 0 and not ${products.envisioned} and ${products.price} > 0) as available,
        ${query.rank} as rank
      from ${products} join ${projects} on ${projects.id} = ${products.projectId} ${query.from}
      where ${products.visible} and ${projects.visible} and ${query.where}
      ${query.limit === undefined ? sql`` : sql`order by ${query.order} limit ${query.limit}`}
    ),
    shown as (
      select * from list ${filters.length > 0 ? sql`where ${sql.join(filters, sql` and `)}` : sql``}
    ),
    page as (
      select id, row_number() over (order by ${order}) as n from shown order by ${order} ${pageLimit}
    )
    select
      (select count(*) from shown)::int as total,
      (select coalesce(json_agg(json_build_object('id', ${projects.id},
          'name', ${localized(locale, projects.nameRu, projects.nameEn)}, 'link', ${projects.link},
          'image', ${projects.image}, 'count', per_project.n) order by ${projects.position}, ${projects.id}), '[]')
        from (select project_id, count(*) as n from list group by project_id) as per_project
        join ${projects} on ${projects.id} = per_project.project_id) as projects,
      -- lateral: one index lookup per product of the list, never a pass over all category links
      (select coalesce(json_agg(json_build_object('id', ${categories.id},
          'name', ${localized(locale, categories.nameRu, categories.nameEn)}, 'link', ${categories.link},
          'count', per_category.n) order by ${categories.position}, ${categories.id}), '[]')
        from (select linked.category_id, count(*) as n from list
          cross join lateral (select pc.category_id from ${productCategories} pc where pc.product_id = list.id) as linked
          group by linked.category_id) as per_category
        join ${categories} on ${categories.id} = per_category.category_id and ${categories.visible}) as categories,
      -- the page's cards in full, in the page's order: no second round trip for them
      (select coalesce(json_agg(json_build_object(${cardJson(locale)}) order by page.n), '[]')
        from page join ${products} on ${products.id} = page.id
        join ${projects} on ${projects.id} = ${products.projectId}) as cards`;

  const [summary] = rowsOf<{
    total: number;
    projects: Array<Omit<Project, 'status'> & { count: number }>;
    categories: Array<Omit<Category, 'status'> & { count: number }>;
    cards: CardRow[];
  }>(await db.execute(statement));
  if (!summary) throw new Error('the list statement answered no row');
  const counted = <T extends { id: number; count: number }>(sections: T[]) =>
    Object.fromEntries(sections.map((section) => [section.id, section.count]));
  const visibleSection = <T extends { count: number }>({ count: _, ...section }: T) => ({
    ...section,
    status: statusOf(true),
  });
  return {
    title: query.title,
    products: summary.cards.map(toCard),
    counts: { projects: counted(summary.projects), categories: counted(summary.categories) },
    projects: summary.projects.map(visibleSection),
    categories: summary.categories.map(visibleSection),
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

export async function getProduct(
  db: Executor,
  locale: Locale,
  link: string,
): Promise<{ product: ProductDetail; similar: ProductCard[] }> {
  const [row] = await db
    .select({
      ...cardColumns(locale),
      description: localized(locale, products.descriptionRu, products.descriptionEn),
      weight: products.weight,
      project: { id: projects.id, nameRu: projects.nameRu, nameEn: projects.nameEn, link: projects.link },
    })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(visibleProduct, eq(products.link, link)));
  if (!row) throw new NotFound('Product not found', { link: ['No such product'] }, 'page-not-found');

  const card = toCard(row);
  const [images, categoryList, similar, rating] = await Promise.all([
    db
      .select({ file: productImages.file })
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
    listSimilar(db, locale, card),
    reviewSummary(db, row.id),
  ]);

  return {
    product: {
      ...card,
      desc: row.description,
      images: images.map((image) => image.file),
      weight: row.weight,
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

/**
 * Products sharing the most categories with this one, then those of the same project; in stock
 * first. Those sharing a category are counted from the category index; the same project's others
 * are read only when these are fewer than SIMILAR_LIMIT.
 */
async function listSimilar(db: Executor, locale: Locale, product: ProductCard): Promise<ProductCard[]> {
  const available = sql`(${products.quantity} > 0 and not ${products.envisioned} and ${products.price} > 0)`;
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
            where ${products.visible} and ${projects.visible}
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
          and(
            eq(products.projectId, product.project_id),
            ne(products.id, product.id),
            sharing.length > 0 ? sql`${products.id} not in (${sql.join(sharing, sql`, `)})` : undefined,
          ),
          [sql`${available} desc`, asc(products.id)],
          SIMILAR_LIMIT - sharing.length,
        );
  return [...(await cardsInOrder(db, locale, sharing)), ...sameProject];
}

export interface SearchHelp {
  /** Names of the products closest to the text, for "did you mean". */
  didYouMean: Array<{ name: string; link: string }>;
  popular: ProductCard[];
}

/** What the search page offers instead of an empty list when a search finds nothing. */
export async function searchHelp(db: Executor, locale: Locale, text: string): Promise<SearchHelp> {
  const [didYouMean, popular] = await Promise.all([closestNames(db, locale, text), popularProductIds(db)]);
  return { didYouMean, popular: await cardsInOrder(db, locale, popular) };
}
