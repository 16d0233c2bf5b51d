import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { combinations, suggestedSku } from '../../contract/variant-combinations.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { sanitizeDescription } from '../catalog/sanitize.ts';
import { recordOpeningStock } from '../catalog/stock.ts';
import type { Database, Executor } from '../db/client.ts';
import {
  categories,
  exchangeRates,
  partners,
  productCategories,
  productImages,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
  projects,
  searchSynonyms,
  users,
} from '../db/schema.ts';
import { storeImage } from '../files/images.ts';
import type { ObjectStorage } from '../files/storage.ts';
import { renderPartnerImage, renderProductImage, renderProjectLogo } from './artwork.ts';
import {
  CATEGORIES,
  PARTNERS,
  PRODUCTS,
  PROJECTS,
  type ProductSeed,
  SEARCH_SYNONYMS,
  SIZES,
} from './catalogue.ts';

/**
 * Fills an empty shop with the demo catalogue, its pictures, an admin account and a starting
 * dollar rate. Pictures are drawn and stored first (content-addressed files, harmless if the seed
 * stops halfway); every row is then written in one transaction, so the database is either seeded
 * completely or not at all.
 */

export interface SeedOptions {
  /** Where the pictures go: the uploads storage. */
  storage: ObjectStorage;
  admin: { email?: string | undefined; password?: string | undefined };
  log: (line: string) => void;
}

const DEFAULT_ADMIN_EMAIL = 'admin@vitrina.example';
/** Any fixed number: concurrent first starts of several instances seed once. */
const SEED_LOCK_KEY = 72_019_432;
/** Pictures drawn at the same time: sharp gives each picture one thread on glibc Linux, so two fill two cores. */
const RENDER_CONCURRENCY = 2;
const INITIAL_USD_RATE = '92.5000';

export async function seedDemoData(db: Database, options: SeedOptions): Promise<{ seeded: boolean }> {
  if (await hasCatalogue(db)) return { seeded: false };

  const started = Date.now();
  const pictures = await drawPictures(options.storage);
  const admin = await adminCredentials(options.admin);

  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (await hasCatalogue(tx)) return false;

    await insertDemoCatalogue(tx, pictures);
    await recordOpeningStock(tx);

    await tx.insert(partners).values(
      PARTNERS.map(({ art: _art, ...partner }, position) => ({
        ...partner,
        image: pictures.partners[position],
        position,
      })),
    );

    await tx
      .insert(exchangeRates)
      .values({ currency: 'USD', rate: INITIAL_USD_RATE, source: 'seed', fetchedAt: new Date() });

    const existingAdmin = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${admin.email})`);
    if (existingAdmin.length === 0) {
      await tx.insert(users).values({
        email: admin.email,
        passwordHash: admin.passwordHash,
        role: 'admin',
        emailVerifiedAt: new Date(),
        locale: 'ru',
      });
      if (admin.generated) {
        options.log(
          `Admin account created: ${admin.email} / ${admin.generated} (shown once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose)`,
        );
      } else {
        options.log(`Admin account created: ${admin.email}`);
      }
    } else {
      options.log(`Admin account ${admin.email} already exists; left as it is.`);
    }
    return true;
  });

  if (seeded) {
    const images = pictures.products.reduce((total, files) => total + files.length, 0);
    options.log(
      `Demo catalogue: ${PROJECTS.length} projects, ${CATEGORIES.length} categories, ${PRODUCTS.length} products ` +
        `(${images} pictures), ${PARTNERS.length} partners, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return { seeded };
}

/** Whether the shop has a catalogue already (any project): then the demo data is not seeded. */
export async function hasCatalogue(db: Pick<Database, 'select'>): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(projects);
  return (row?.value ?? 0) > 0;
}

/** Draws every picture and stores it with its variants; returns the file names in catalogue order. */

/** Pictures of the demo catalogue: stored file names per project and per product, in seed order. */
type CataloguePictures = Pick<Awaited<ReturnType<typeof drawPictures>>, 'projects' | 'products'>;

/**
 * The demo catalogue's rows: projects, categories, products with their categories and pictures,
 * and the search synonyms. Tests write it without pictures.
 */
export async function insertDemoCatalogue(tx: Executor, pictures: CataloguePictures) {
  const projectIds = new Map<string, number>();
  for (const [position, project] of PROJECTS.entries()) {
    const [row] = await tx
      .insert(projects)
      .values({
        link: project.link,
        nameRu: project.nameRu,
        nameEn: project.nameEn,
        image: pictures.projects[position],
        position,
      })
      .returning({ id: projects.id });
    if (row) projectIds.set(project.link, row.id);
  }

  const categoryRows = await tx
    .insert(categories)
    .values(CATEGORIES.map((category, position) => ({ ...category, position })))
    .returning({ id: categories.id, link: categories.link });
  const categoryIds = new Map(categoryRows.map((row) => [row.link, row.id]));

  for (const [position, product] of PRODUCTS.entries()) {
    const projectId = projectIds.get(product.project);
    if (projectId === undefined)
      throw new Error(`Demo product ${product.link} names unknown project ${product.project}`);
    const [row] = await tx
      .insert(products)
      .values({
        projectId,
        link: product.link,
        nameRu: product.nameRu,
        nameEn: product.nameEn,
        descriptionRu: sanitizeDescription(product.descriptionRu),
        descriptionEn: sanitizeDescription(product.descriptionEn),
        price: product.price,
        sale: product.sale ?? null,
        weight: product.weight,
        quantity: product.quantity,
        weekSale: product.weekSale ?? false,
        envisioned: product.envisioned ?? false,
        position,
      })
      .returning({ id: products.id });
    if (!row) throw new Error(`Demo product ${product.link} was not inserted`);
    await tx.insert(productCategories).values(
      product.categories.map((link) => {
        const categoryId = categoryIds.get(link);
        if (categoryId === undefined)
          throw new Error(`Demo product ${product.link} names unknown category ${link}`);
        return { productId: row.id, categoryId };
      }),
    );
    const files = pictures.products[position] ?? [];
    if (files.length > 0)
      await tx
        .insert(productImages)
        .values(files.map((file, index) => ({ productId: row.id, file, position: index })));
    await insertDemoVariants(tx, row.id, product, position, files);
  }

  await tx.insert(searchSynonyms).values(SEARCH_SYNONYMS);
}

/** Stock per size, turned by the product's position: uneven, with sold-out sizes. */
const SIZE_STOCK = [0, 3, 6, 4, 2, 0, 1, 5];

/**
 * T-shirts and hoodies come in sizes XS–XXL with uneven stock (some sold out), and a product with
 * `colours` in those too, each colour showing its own pictures. Their variants replace the default
 * one the database made with the product; a product seeded sold out stays sold out in every size.
 */
async function insertDemoVariants(
  tx: Executor,
  productId: number,
  product: ProductSeed,
  position: number,
  files: readonly string[],
) {
  const sized =
    !product.envisioned &&
    product.categories.some((category) => category === 't-shirts' || category === 'hoodies');
  const colours = product.colours ?? [];
  if (!sized && colours.length === 0) return;
  const options = [
    ...(sized
      ? [
          {
            kind: 'size' as const,
            nameRu: 'Размер',
            nameEn: 'Size',
            values: SIZES.map((size) => ({
              valueRu: size,
              valueEn: size,
              swatch: null,
              images: [] as number[],
            })),
          },
        ]
      : []),
    ...(colours.length > 0
      ? [
          {
            kind: 'colour' as const,
            nameRu: 'Цвет',
            nameEn: 'Colour',
            values: colours.map((colour) => ({ ...colour })),
          },
        ]
      : []),
  ];
  const valueIds = new Map<string, number>();
  for (const [optionPosition, option] of options.entries()) {
    const [saved] = await tx
      .insert(productOptions)
      .values({
        productId,
        kind: option.kind,
        nameRu: option.nameRu,
        nameEn: option.nameEn,
        position: optionPosition,
      })
      .returning({ id: productOptions.id });
    if (!saved) throw new Error(`Demo product ${product.link}: option not inserted`);
    for (const [valuePosition, value] of option.values.entries()) {
      const [savedValue] = await tx
        .insert(productOptionValues)
        .values({
          optionId: saved.id,
          valueRu: value.valueRu,
          valueEn: value.valueEn,
          swatch: value.swatch,
          position: valuePosition,
        })
        .returning({ id: productOptionValues.id });
      if (!savedValue) throw new Error(`Demo product ${product.link}: option value not inserted`);
      valueIds.set(`${optionPosition}:${value.valueEn}`, savedValue.id);
      const pictures = value.images.flatMap((index) => (files[index] ? [files[index]] : []));
      if (pictures.length > 0)
        await tx
          .update(productImages)
          .set({ optionValueId: savedValue.id })
          .where(and(eq(productImages.productId, productId), inArray(productImages.file, pictures)));
    }
  }
  await tx.delete(productVariants).where(eq(productVariants.productId, productId));
  for (const [index, combination] of combinations(
    options.map((option) => option.values.map((value) => value.valueEn)),
  ).entries()) {
    const [variant] = await tx
      .insert(productVariants)
      .values({
        productId,
        sku: suggestedSku(product.link, combination),
        quantity: product.quantity === 0 ? 0 : (SIZE_STOCK[(index + position) % SIZE_STOCK.length] ?? 0),
        position: index,
      })
      .returning({ id: productVariants.id });
    if (!variant) throw new Error(`Demo product ${product.link}: variant not inserted`);
    await tx.insert(productVariantValues).values(
      combination.map((valueEn, optionPosition) => ({
        variantId: variant.id,
        optionValueId: valueIds.get(`${optionPosition}:${valueEn}`) ?? 0,
      })),
    );
  }
}

async function drawPictures(storage: ObjectStorage) {
  const brandOf = new Map(PROJECTS.map((project) => [project.link, project.brand]));
  const projectLogos = await inBatches(
    PROJECTS,
    async (project) => (await storeImage(storage, 'projects', await renderProjectLogo(project.brand))).name,
  );
  const partnerCards = await inBatches(
    PARTNERS,
    async (partner) => (await storeImage(storage, 'partners', await renderPartnerImage(partner.art))).name,
  );
  const jobs = PRODUCTS.flatMap((product) => {
    const brand = brandOf.get(product.project);
    if (!brand) throw new Error(`Demo product ${product.link} names unknown project ${product.project}`);
    return product.images.map((design) => ({ design, brand }));
  });
  const files = await inBatches(
    jobs,
    async ({ design, brand }) =>
      (await storeImage(storage, 'products', await renderProductImage(design, brand))).name,
  );
  let next = 0;
  const productFiles = PRODUCTS.map((product) => {
    const own = files.slice(next, next + product.images.length);
    next += product.images.length;
    return own;
  });
  return { projects: projectLogos, partners: partnerCards, products: productFiles };
}

async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(RENDER_CONCURRENCY, items.length) }, worker));
  return results;
}

async function adminCredentials(admin: SeedOptions['admin']) {
  const email = admin.email ?? DEFAULT_ADMIN_EMAIL;
  // 12 random bytes are exactly 16 base64url characters.
  const generated = admin.password ? undefined : randomBytes(12).toString('base64url');
  const password = generated ?? admin.password ?? '';
  return { email, generated, passwordHash: await hashPassword(password) };
}
