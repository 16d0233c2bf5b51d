import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import {
  type CategoryInput,
  type EditTarget,
  LOW_STOCK_UNITS,
  type ProductInput,
  type ProductListQuery,
  type ProductListSort,
  type ProjectInput,
} from '../../contract/admin.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles, roublesToKopecks } from '../../contract/money.ts';
import { DATABASE_INT_MAX } from '../../contract/numbers.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { ADMIN_PAGE_SIZE, pageOf } from '../db/paging.ts';
import {
  categories,
  drops,
  orderItems,
  productCategories,
  productImages,
  products,
  productVariants,
  projects,
} from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';
import { adoptImage, imageExists } from '../files/images.ts';
import type { ObjectStorage } from '../files/storage.ts';
import type { MailShop } from '../mail/templates.ts';
import { boxColumns, boxWire, customsColumns, customsWire } from '../shipping/customs-fields.ts';
import { setEnvisioned } from './envisioned.ts';
import { sanitizeDescription } from './sanitize.ts';
import { changeStock } from './stock.ts';
import { resolveVariantId, variantLabel } from './variants.ts';

/**
 * The catalogue as administrators edit it. Every change is audited; descriptions are sanitized on
 * write; stock changes are atomic (a delta, or a hard set) so they never clobber concurrent orders.
 * Called through services.writes (requests/catalog-writes.ts), which applies each change to the caches.
 */

function isUniqueViolation(error: unknown): boolean {
  const code = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return code(error) === '23505' || code((error as { cause?: unknown } | undefined)?.cause) === '23505';
}

async function uniqueLink<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict('link-taken', { link: ['link-taken'] });
    throw error;
  }
}

const notFound = () => new NotFound('not-found', { id: ['not-found'] });

// ── Projects and categories ─────────────────────────────────────────────────────────────────────

const projectView = (row: typeof projects.$inferSelect) => ({
  id: row.id,
  name_ru: row.nameRu,
  name_en: row.nameEn,
  link: row.link,
  image: row.image,
  visible: row.visible,
  position: row.position,
  version: row.version,
});

/** Every project; `imageMissing` marks a logo name that is not stored (shown as missing, not as a broken image). */
export async function listProjectsForAdmin(db: Executor, storage: ObjectStorage) {
  const rows = await db.select().from(projects).orderBy(asc(projects.position), asc(projects.id));
  return Promise.all(
    rows.map(async (row) => ({
      ...projectView(row),
      imageMissing: row.image !== null && !(await imageExists(storage, 'projects', row.image)),
    })),
  );
}

/**
 * Creates a project, or saves over `target` if nobody changed it since the editor loaded it. The
 * logo must be stored: a project logo, or a file manager upload, which becomes one.
 */
export async function saveProject(
  db: Database,
  storage: ObjectStorage,
  actorId: number,
  input: ProjectInput,
  target?: EditTarget,
) {
  if (input.image !== null) await adoptImage(storage, 'projects', input.image);
  const values = {
    nameRu: input.name_ru,
    nameEn: input.name_en,
    link: input.link,
    image: input.image,
    visible: input.visible,
    position: input.position,
    updatedAt: new Date(),
  };
  return db.transaction(async (transaction) => {
    const [before] =
      target === undefined ? [] : await transaction.select().from(projects).where(eq(projects.id, target.id));
    if (target !== undefined && !before) throw notFound();
    const [row] = await uniqueLink(() =>
      target === undefined
        ? transaction.insert(projects).values(values).returning()
        : transaction
            .update(projects)
            .set({ ...values, version: sql`${projects.version} + 1` })
            .where(and(eq(projects.id, target.id), eq(projects.version, target.version)))
            .returning(),
    );
    if (!row) throw recordChanged();
    await recordAudit(transaction, {
      actorId,
      action: before ? 'update' : 'create',
      entity: 'project',
      entityId: row.id,
      before: before ? projectView(before) : undefined,
      after: projectView(row),
    });
    return projectView(row);
  });
}

export async function deleteProject(db: Database, actorId: number, id: number) {
  await db.transaction(async (transaction) => {
    const [used] = await transaction
      .select({ count: count() })
      .from(products)
      .where(eq(products.projectId, id));
    if ((used?.count ?? 0) > 0) throw new Conflict('project-has-products', { id: ['project-has-products'] });
    const [row] = await transaction.delete(projects).where(eq(projects.id, id)).returning();
    if (!row) throw notFound();
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'project',
      entityId: id,
      before: projectView(row),
    });
  });
}

const categoryView = (row: typeof categories.$inferSelect) => ({
  id: row.id,
  name_ru: row.nameRu,
  name_en: row.nameEn,
  link: row.link,
  visible: row.visible,
  position: row.position,
  size_guide_ru: row.sizeGuideRu,
  size_guide_en: row.sizeGuideEn,
  version: row.version,
});

export async function listCategoriesForAdmin(db: Executor) {
  return (await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id))).map(
    categoryView,
  );
}

/** Creates a category, or saves over `target` if nobody changed it since the editor loaded it. */
export async function saveCategory(db: Database, actorId: number, input: CategoryInput, target?: EditTarget) {
  const values = {
    nameRu: input.name_ru,
    nameEn: input.name_en,
    link: input.link,
    visible: input.visible,
    position: input.position,
    ...(input.size_guide_ru === undefined ? {} : { sizeGuideRu: sanitizeDescription(input.size_guide_ru) }),
    ...(input.size_guide_en === undefined ? {} : { sizeGuideEn: sanitizeDescription(input.size_guide_en) }),
    updatedAt: new Date(),
  };
  return db.transaction(async (transaction) => {
    const [before] =
      target === undefined
        ? []
        : await transaction.select().from(categories).where(eq(categories.id, target.id));
    if (target !== undefined && !before) throw notFound();
    const [row] = await uniqueLink(() =>
      target === undefined
        ? transaction.insert(categories).values(values).returning()
        : transaction
            .update(categories)
            .set({ ...values, version: sql`${categories.version} + 1` })
            .where(and(eq(categories.id, target.id), eq(categories.version, target.version)))
            .returning(),
    );
    if (!row) throw recordChanged();
    await recordAudit(transaction, {
      actorId,
      action: before ? 'update' : 'create',
      entity: 'category',
      entityId: row.id,
      before: before ? categoryView(before) : undefined,
      after: categoryView(row),
    });
    return categoryView(row);
  });
}

/**
 * Deletes a category. One that still has products is refused (409, with their number), like a
 * project, so no product silently loses it; with `moveTo` its products are first put in that
 * category (those already there stay once), in the same transaction.
 */
export async function deleteCategory(
  db: Database,
  actorId: number,
  id: number,
  options: { moveTo?: number | undefined } = {},
) {
  await db.transaction(async (transaction) => {
    // Locked first: a product saved into it meanwhile waits, then finds it gone.
    const [category] = await transaction.select().from(categories).where(eq(categories.id, id)).for('update');
    if (!category) throw notFound();
    const [used] = await transaction
      .select({ count: count() })
      .from(productCategories)
      .where(eq(productCategories.categoryId, id));
    const products = used?.count ?? 0;
    let moved: { to: number; products: number } | undefined;
    if (products > 0) {
      if (options.moveTo === undefined)
        throw new Conflict('category-has-products', { id: ['category-has-products'] }, undefined, {
          products,
        });
      if (options.moveTo === id) throw new Invalid('category-move-same', { moveTo: ['category-move-same'] });
      const [target] = await transaction
        .select({ id: categories.id })
        .from(categories)
        .where(eq(categories.id, options.moveTo))
        .for('share');
      if (!target) throw new Invalid('category-move-unknown', { moveTo: ['category-move-unknown'] });
      await transaction.execute(sql`
        insert into ${productCategories} (product_id, category_id)
        select product_id, ${target.id} from ${productCategories} where category_id = ${id}
        on conflict do nothing`);
      moved = { to: target.id, products };
    }
    await transaction.delete(categories).where(eq(categories.id, id));
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'category',
      entityId: id,
      before: categoryView(category),
      ...(moved ? { after: { products_moved_to: moved.to, products: moved.products } } : {}),
    });
  });
}

// ── Products ────────────────────────────────────────────────────────────────────────────────────

export async function getProductForAdmin(db: Executor, id: number) {
  const [found] = await db
    .select({
      row: products,
      drop: { id: drops.id, name_ru: drops.nameRu, name_en: drops.nameEn },
    })
    .from(products)
    .leftJoin(drops, eq(drops.id, products.dropId))
    .where(eq(products.id, id));
  if (!found) throw notFound();
  const { row, drop } = found;
  // One query after the other: `db` may be a transaction, whose connection takes one at a time.
  const categoryRows = await db
    .select({ id: productCategories.categoryId })
    .from(productCategories)
    .where(eq(productCategories.productId, id));
  const imageRows = await db
    .select({ file: productImages.file })
    .from(productImages)
    .where(eq(productImages.productId, id))
    .orderBy(asc(productImages.position), asc(productImages.id));
  return {
    id: row.id,
    project: row.projectId,
    categories: categoryRows.map((category) => category.id).sort((a, b) => a - b),
    name_ru: row.nameRu,
    name_en: row.nameEn,
    desc_ru: row.descriptionRu,
    desc_en: row.descriptionEn,
    link: row.link,
    images: imageRows.map((image) => image.file),
    price: kopecksToRoubles(row.price),
    sale: row.sale === null ? null : kopecksToRoubles(row.sale),
    weight: row.weight,
    currentQuantity: row.quantity,
    visible: row.visible,
    weekSale: row.weekSale,
    envisioned: row.envisioned,
    position: row.position,
    /** When it goes on sale (null: on sale); a product in a drop has the drop's (ADR 0041). */
    release_at: row.releaseAt,
    drop,
    per_customer_limit: row.perCustomerLimit,
    ...customsWire(row),
    ...boxWire(row),
    version: row.version,
  };
}

export type AdminProduct = Awaited<ReturnType<typeof getProductForAdmin>>;

/** `%text%` for ilike, with the text's own `%`, `_` and `\` taken literally. */
const containing = (text: string) => `%${text.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;

/** The order of each sort, newest first by default; the id breaks ties so pages never overlap. */
function productListOrder(sort: ProductListSort, locale: Locale): SQL[] {
  const name = locale === 'ru' ? products.nameRu : products.nameEn;
  switch (sort) {
    case 'new':
      return [desc(products.id)];
    case 'old':
      return [asc(products.id)];
    case 'name':
      return [asc(name), asc(products.id)];
    case 'price-asc':
      return [asc(products.price), asc(products.id)];
    case 'price-desc':
      return [desc(products.price), desc(products.id)];
    case 'stock-asc':
      return [asc(products.quantity), asc(products.id)];
    case 'stock-desc':
      return [desc(products.quantity), desc(products.id)];
  }
}

/** What the list's filters keep: text search, project, category, hidden, envisioned, stock. */
function productListFilter(options: Omit<ProductListQuery, 'page' | 'sort'>): SQL | undefined {
  const search = options.search;
  return and(
    search
      ? or(
          // One trigram index serves the three (products_admin_search_idx, migration 0012).
          sql`(${products.nameRu} || ' ' || ${products.nameEn} || ' ' || ${products.link}) ilike ${containing(search)}`,
          /^\d+$/.test(search) && Number(search) <= DATABASE_INT_MAX
            ? eq(products.id, Number(search))
            : undefined,
        )
      : undefined,
    options.project === undefined ? undefined : eq(products.projectId, options.project),
    options.category === undefined
      ? undefined
      : sql`exists (select 1 from ${productCategories} where ${productCategories.productId} = ${products.id} and ${productCategories.categoryId} = ${options.category})`,
    options.hidden ? eq(products.visible, false) : undefined,
    options.envisioned ? eq(products.envisioned, true) : undefined,
    options.stock === 'out' ? eq(products.quantity, 0) : undefined,
    // Running out: some variant has a few units left (a sold-out size beside it does not count).
    options.stock === 'low'
      ? sql`exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id} and ${productVariants.quantity} between 1 and ${LOW_STOCK_UNITS})`
      : undefined,
  );
}

/** The first picture of each product, by position. */
async function firstImages(db: Executor, ids: number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .selectDistinctOn([productImages.productId], {
      productId: productImages.productId,
      file: productImages.file,
    })
    .from(productImages)
    .where(inArray(productImages.productId, ids))
    .orderBy(productImages.productId, asc(productImages.position), asc(productImages.id));
  return new Map(rows.map((row) => [row.productId, row.file]));
}

/**
 * A page of the back office's products list with its filters and sort, each row with its first
 * picture (the thumbnail) and its project's names. Pictures are read for the page's rows alone:
 * in the page's query they would be read for every row an offset skips too.
 */
export async function listProductsForAdmin(db: Executor, options: ProductListQuery & { locale?: Locale }) {
  const where = productListFilter(options);
  const page = await pageOf(
    { page: options.page, size: ADMIN_PAGE_SIZE },
    db
      .select({ count: count() })
      .from(products)
      .where(where)
      .then(([total]) => total?.count ?? 0),
    (offset, limit) =>
      db
        .select({
          id: products.id,
          link: products.link,
          name_ru: products.nameRu,
          name_en: products.nameEn,
          price: products.price,
          sale: products.sale,
          quantity: products.quantity,
          visible: products.visible,
          weekSale: products.weekSale,
          envisioned: products.envisioned,
          project_ru: projects.nameRu,
          project_en: projects.nameEn,
          drop_id: products.dropId,
        })
        .from(products)
        .innerJoin(projects, eq(projects.id, products.projectId))
        .where(where)
        .orderBy(...productListOrder(options.sort, options.locale ?? 'en'))
        .limit(limit)
        .offset(offset),
  );
  const images = await firstImages(
    db,
    page.rows.map((row) => row.id),
  );
  return {
    list: page.rows.map((row) => ({
      ...row,
      image: images.get(row.id) ?? null,
      price: kopecksToRoubles(row.price),
      sale: row.sale === null ? null : kopecksToRoubles(row.sale),
    })),
    total: page.total,
    currentPage: page.currentPage,
    lastPage: page.lastPage,
  };
}

/**
 * Creates a product, or saves over `target` if nobody changed it since the editor loaded it.
 * Making an envisioned product orderable mails its fans (once each).
 */
export async function saveProduct(
  db: Database,
  actorId: number,
  input: ProductInput,
  context: { publicUrl: string; shop?: MailShop },
  target?: EditTarget,
): Promise<AdminProduct> {
  const id = target?.id;
  const before = id === undefined ? undefined : await getProductForAdmin(db, id);
  const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, input.project));
  if (!project) throw new NotFound('not-found', { project: ['not-found'] });

  // A new product's units are the first receipt of the default variant the database creates with it.
  if (
    id !== undefined &&
    input.quantityHardset &&
    input.quantity !== undefined &&
    input.quantity_seen === undefined
  )
    throw new Invalid('field-required', { quantity_seen: ['field-required'] });
  const values = {
    projectId: input.project,
    nameRu: input.name_ru,
    nameEn: input.name_en,
    descriptionRu: sanitizeDescription(input.desc_ru),
    descriptionEn: sanitizeDescription(input.desc_en),
    link: input.link,
    price: roublesToKopecks(input.price),
    sale: input.sale === null ? null : roublesToKopecks(input.sale),
    weight: input.weight,
    visible: input.visible,
    weekSale: input.weekSale,
    position: input.position,
    // Absent: unchanged. A product in a drop keeps the drop's release time (a trigger sees to it).
    ...(input.release_at === undefined ? {} : { releaseAt: input.release_at }),
    ...(input.per_customer_limit === undefined ? {} : { perCustomerLimit: input.per_customer_limit }),
    ...customsColumns(input),
    ...boxColumns(input),
    updatedAt: new Date(),
  };

  const productId = await db.transaction(async (transaction) => {
    const [row] = await uniqueLink(() =>
      target === undefined
        ? transaction
            .insert(products)
            .values({ ...values, envisioned: input.envisioned })
            .returning({ id: products.id })
        : transaction
            .update(products)
            .set({ ...values, version: sql`${products.version} + 1` })
            .where(and(eq(products.id, target.id), eq(products.version, target.version)))
            .returning({ id: products.id }),
    );
    if (!row) throw recordChanged();
    if (input.quantity !== undefined) {
      const variantId = await resolveVariantId(transaction, row.id, undefined);
      await changeStock(
        transaction,
        row.id,
        [
          target !== undefined && input.quantityHardset
            ? { variantId, counted: input.quantity, seen: input.quantity_seen ?? input.quantity }
            : { variantId, delta: input.quantity },
        ],
        {
          actorId,
          ...(input.stock_note ? { note: input.stock_note } : {}),
          ...(context.shop ? { shop: context.shop } : {}),
        },
      );
    }
    await transaction.delete(productCategories).where(eq(productCategories.productId, row.id));
    const categoryIds = [...new Set(input.categories)];
    if (categoryIds.length > 0) {
      const known = await transaction
        .select({ id: categories.id })
        .from(categories)
        .where(sql`${categories.id} in (${sql.join(categoryIds, sql`, `)})`);
      if (known.length !== categoryIds.length) throw new NotFound('not-found', { categories: ['not-found'] });
      await transaction
        .insert(productCategories)
        .values(categoryIds.map((categoryId) => ({ productId: row.id, categoryId })));
    }
    // Pictures keep the colour they show (set in the variant table) across a save of the product.
    const colours = new Map(
      (
        await transaction
          .delete(productImages)
          .where(eq(productImages.productId, row.id))
          .returning({ file: productImages.file, optionValueId: productImages.optionValueId })
      ).map((image) => [image.file, image.optionValueId]),
    );
    if (input.images.length > 0) {
      await transaction.insert(productImages).values(
        input.images.map((file, position) => ({
          productId: row.id,
          file,
          position,
          optionValueId: colours.get(file) ?? null,
        })),
      );
    }
    return row.id;
  });

  // Toggling envisioned goes through the wishlist rule, which mails fans exactly once.
  if (before && before.envisioned !== input.envisioned)
    await setEnvisioned(db, productId, input.envisioned, context);

  const after = await getProductForAdmin(db, productId);
  await recordAudit(db, {
    actorId,
    action: before ? 'update' : 'create',
    entity: 'product',
    entityId: productId,
    before,
    after,
  });
  return after;
}

export async function deleteProduct(db: Database, actorId: number, id: number) {
  const before = await getProductForAdmin(db, id);
  const [ordered] = await db.select({ count: count() }).from(orderItems).where(eq(orderItems.productId, id));
  if ((ordered?.count ?? 0) > 0) throw new Conflict('product-ordered', { id: ['product-ordered'] });
  await db.transaction(async (transaction) => {
    await transaction.delete(products).where(eq(products.id, id));
    await recordAudit(transaction, { actorId, action: 'delete', entity: 'product', entityId: id, before });
  });
}

/**
 * Orderable variants running out, fewest first, for the dashboard: each with its product and its
 * option label in the locale ("Size: L"; null for a product without options).
 */
export async function lowStock(db: Executor, locale: Locale, threshold = LOW_STOCK_UNITS) {
  return db
    .select({
      id: products.id,
      variantId: productVariants.id,
      name: locale === 'ru' ? products.nameRu : products.nameEn,
      options: variantLabel(locale),
      sku: productVariants.sku,
      link: products.link,
      quantity: productVariants.quantity,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      // Running out, not gone: a sold-out size of a limited edition is the usual end, not news.
      sql`${productVariants.quantity} between 1 and ${threshold} and ${products.visible} and not ${products.envisioned}`,
    )
    .orderBy(asc(productVariants.quantity), asc(products.id), asc(productVariants.position))
    .limit(50);
}
