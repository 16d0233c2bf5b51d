import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import {
  type Category,
  type ProductCard,
  type ProductDetail,
  type Project,
  STATUS_VISIBLE,
  STATUS_WEEK_SALE,
} from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { countSections } from '../../contract/shop.ts';
import type { Executor } from '../db/client.ts';
import { categories, productCategories, productImages, products, projects } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { reviewSummary } from '../reviews/service.ts';
import { productViewColumns } from './product-view.ts';

/**
 * The catalogue as shoppers see it: visible projects, categories and products only. A product is
 * visible when it and its project are; hidden categories never appear in a product's category list.
 */

const SIMILAR_LIMIT = 8;
const WEEK_LIMIT = 12;
const SEARCH_LIMIT = 60;
/** pg_trgm word similarity above which a misspelt word still finds a product name. */
const TYPO_THRESHOLD = 0.45;

const localized = <Ru, En>(locale: Locale, ru: Ru, en: En): Ru | En => (locale === 'ru' ? ru : en);

const statusOf = (visible: boolean, weekSale = false) =>
  (visible ? STATUS_VISIBLE : 0) | (weekSale ? STATUS_WEEK_SALE : 0);

const visibleProduct = and(eq(products.visible, true), eq(projects.visible, true));

function cardColumns(locale: Locale) {
  return {
    ...productViewColumns(locale),
    projectId: products.projectId,
    weekSale: products.weekSale,
    categoryIds: sql<number[]>`coalesce((select array_agg(pc.category_id order by pc.category_id)
      from ${productCategories} pc join ${categories} c on c.id = pc.category_id and c.visible
      where pc.product_id = ${products.id}), '{}')`,
  };
}

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
    inStock: row.envisioned ? 0 : row.quantity,
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

/** Featured (week-sale) products for the home page. */
export function listWeekProducts(db: Executor, locale: Locale): Promise<ProductCard[]> {
  return selectCards(db, locale, eq(products.weekSale, true), defaultOrder, WEEK_LIMIT);
}

export interface ProductList {
  title: string;
  products: ProductCard[];
}

/** A list page's products plus the side sections (projects and categories present, with counts). */
export async function withSections(db: Executor, locale: Locale, list: ProductList) {
  const counts = countSections(list.products);
  const [allProjects, allCategories] = await Promise.all([
    listProjects(db, locale),
    listCategories(db, locale),
  ]);
  return {
    ...list,
    counts,
    projects: allProjects.filter((project) => counts.projects[project.id]),
    categories: allCategories.filter((category) => counts.categories[category.id]),
  };
}

export async function listProjectProducts(db: Executor, locale: Locale, link: string): Promise<ProductList> {
  const [project] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.link, link), eq(projects.visible, true)));
  if (!project) throw new NotFound('Project not found', { link: ['No such project'] }, 'page-not-found');
  return {
    title: localized(locale, project.nameRu, project.nameEn),
    products: await selectCards(db, locale, eq(products.projectId, project.id), defaultOrder),
  };
}

export async function listCategoryProducts(db: Executor, locale: Locale, link: string): Promise<ProductList> {
  const [category] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.link, link), eq(categories.visible, true)));
  if (!category) throw new NotFound('Category not found', { link: ['No such category'] }, 'page-not-found');
  const inCategory = sql`exists (select 1 from ${productCategories} pc
    where pc.product_id = ${products.id} and pc.category_id = ${category.id})`;
  return {
    title: localized(locale, category.nameRu, category.nameEn),
    products: await selectCards(db, locale, inCategory, defaultOrder),
  };
}

/**
 * Full-text search over names and descriptions in Russian and English (stemmed), ranked, with
 * trigram word similarity on the names so that a misspelt word still finds the product.
 */
export async function searchProducts(db: Executor, locale: Locale, text: string): Promise<ProductList> {
  const needle = text.trim().toLowerCase();
  const query = sql`(websearch_to_tsquery('russian', ${needle}) || websearch_to_tsquery('english', ${needle}))`;
  const names = sql`lower(${products.nameRu} || ' ' || ${products.nameEn})`;
  const found = await db.transaction(async (transaction) => {
    await transaction.execute(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_THRESHOLD)}, true)`,
    );
    return selectCards(
      transaction,
      locale,
      sql`(${products.searchVector} @@ ${query} or ${needle} <% ${names})`,
      [
        sql`ts_rank(${products.searchVector}, ${query}) + word_similarity(${needle}, ${names}) desc`,
        asc(products.id),
      ],
      SEARCH_LIMIT,
    );
  });
  return { title: text.trim(), products: found };
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

/** Products sharing the most categories with this one, then those of the same project; in stock first. */
function listSimilar(db: Executor, locale: Locale, product: ProductCard): Promise<ProductCard[]> {
  const categoryIds = product.categories.length > 0 ? product.categories : [0];
  const shared = sql`(select count(*) from ${productCategories} pc
    where pc.product_id = ${products.id} and pc.category_id in (${sql.join(categoryIds, sql`, `)}))`;
  return selectCards(
    db,
    locale,
    and(ne(products.id, product.id), sql`(${products.projectId} = ${product.project_id} or ${shared} > 0)`),
    [
      sql`${shared} desc`,
      sql`(${products.projectId} = ${product.project_id}) desc`,
      sql`(${products.quantity} > 0 and not ${products.envisioned}) desc`,
      asc(products.id),
    ],
    SIMILAR_LIMIT,
  );
}
