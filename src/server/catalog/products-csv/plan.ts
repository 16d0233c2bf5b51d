import { inArray } from 'drizzle-orm';
import { link as linkSchema, productInput } from '../../../contract/admin.ts';
import { customsFields } from '../../../contract/customs.ts';
import { type Kopecks, kopecksToRoubles, roublesToKopecks } from '../../../contract/money.ts';
import { z } from '../../../contract/zod.ts';
import type { Transaction } from '../../db/client.ts';
import { categories, productVariants, projects } from '../../db/schema.ts';
import type { SpreadsheetEncoding } from '../../files/spreadsheet-csv.ts';
import { sanitizeDescription } from '../sanitize.ts';
import {
  BOX_COLUMNS,
  type Column,
  type CsvProduct,
  type CsvVariant,
  CUSTOMS_COLUMNS,
  FIELDS,
  type Field,
  hasOptions,
  type Planned,
  type RowProblem,
  sameValue,
  VARIANT_COLUMNS,
  VARIANT_CUSTOMS,
  type VariantStep,
} from './columns.ts';
import { loadProducts, loadVariants } from './load.ts';
import {
  type CsvRow,
  checkHeader,
  csvRows,
  INTEGER,
  listOf,
  PRICE,
  type RowReader,
  readCsv,
  rowReader,
} from './read.ts';

const variantCustomsSchema = z.object(customsFields);

/** The `productInput` field an issue is about, as the CSV column it came from. */
const columnOf = (field: PropertyKey | undefined): string =>
  field === 'weekSale' ? 'week_sale' : field === 'quantityHardset' ? 'quantity' : String(field ?? 'csv');

/** How a value shows in the report: prices in roubles. */
const shown = (field: Field, value: unknown) =>
  (field === 'price' || field === 'sale') && typeof value === 'number' ? kopecksToRoubles(value) : value;

/** What the plan reads once for all rows: the file's products, variants, SKUs, projects and categories. */
interface PlanContext {
  header: string[];
  existing: Map<string, { id: number; product: CsvProduct }>;
  variantsOf: Map<number, CsvVariant[]>;
  /** The product each SKU named in the file belongs to now. */
  skuOwners: Map<string, number>;
  /** The SKUs earlier rows took. */
  skusSeen: Set<string>;
  projectIds: Map<string, number>;
  categoryIds: Map<string, number>;
}

async function readPlanContext(transaction: Transaction, header: string[], rows: CsvRow[], links: string[]) {
  const existing = await loadProducts(transaction, links);
  const projectRows = await transaction.select({ id: projects.id, link: projects.link }).from(projects);
  const categoryRows = await transaction
    .select({ id: categories.id, link: categories.link })
    .from(categories);
  const variantsOf = await loadVariants(
    transaction,
    [...existing.values()].map((entry) => entry.id),
  );
  const fileSkus = rows.flatMap((row) => {
    const sku = row.value('sku')?.trim();
    return sku ? [sku] : [];
  });
  const skuOwners = new Map(
    fileSkus.length === 0
      ? []
      : (
          await transaction
            .select({ sku: productVariants.sku, productId: productVariants.productId })
            .from(productVariants)
            .where(inArray(productVariants.sku, fileSkus))
        ).map((row) => [row.sku, row.productId]),
  );
  return {
    header,
    existing,
    variantsOf,
    skuOwners,
    skusSeen: new Set<string>(),
    projectIds: new Map(projectRows.map((row) => [row.link, row.id])),
    categoryIds: new Map(categoryRows.map((row) => [row.link, row.id])),
  } satisfies PlanContext;
}

const withOptions = (context: PlanContext, existing: Planned['existing']) =>
  existing !== undefined && hasOptions(context.variantsOf.get(existing.id));

/**
 * Checks every row and works out what would change, without writing. The products named in the
 * file are locked until the transaction ends.
 */
export async function plan(transaction: Transaction, csv: string, encoding: SpreadsheetEncoding) {
  const warnings: RowProblem[] = [];
  const read = readCsv(csv);
  if ('line' in read) return { errors: [read], warnings, planned: [] };
  const headerProblems = checkHeader(read.header);
  if (headerProblems.length > 0) return { errors: headerProblems, warnings, planned: [] };

  const rows = csvRows(read.header, read.records);
  const links = rows.map((row) => linkSchema.safeParse(row.value('link')));
  const context = await readPlanContext(
    transaction,
    read.header,
    rows,
    links.flatMap((result) => (result.success ? [result.data] : [])),
  );

  const errors: RowProblem[] = [];
  const planned: Planned[] = [];
  const plannedByLink = new Map<string, Planned>();
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const reader = rowReader(row, encoding, warnings);
    const linkResult = links[index];
    if (!linkResult?.success) {
      reader.fail('link', linkResult?.error.issues[0]?.message ?? 'link-invalid');
    } else if (seen.has(linkResult.data)) {
      planFollowingRow(context, reader, plannedByLink.get(linkResult.data));
    } else {
      seen.add(linkResult.data);
      const entry = planProductRow(context, reader, linkResult.data);
      if (entry) {
        planned.push(entry);
        plannedByLink.set(entry.link, entry);
      }
    }
    errors.push(...reader.problems);
  });
  return { errors, warnings, planned, projectIds: context.projectIds, categoryIds: context.categoryIds };
}

/** A following row of a product: its variant columns only. */
function planFollowingRow(context: PlanContext, reader: RowReader, entry: Planned | undefined) {
  const filled = context.header.filter(
    (column, cellIndex) =>
      !VARIANT_COLUMNS.has(column as Column) && (reader.row.cells[cellIndex] ?? '').trim() !== '',
  );
  if (filled.length > 0) reader.fail('link', 'csv-link-duplicate');
  else if (entry) planVariant(context, reader, entry, false);
}

/**
 * A row's counted stock: a new product's or variant's first stock, or a count over the figure it was
 * made at (ADR 0094). Beside the export's `quantity_seen`, a count equal to it was not typed (nothing
 * to change, whatever the stock is now) and a count over a figure that has moved since the export is
 * refused with the figure now: the count was made against a stock that is no longer there. Without
 * `quantity_seen` an existing stock is changed by no bare new total: the figure now is kept, and a
 * different one is refused with the figure now.
 */
function countedStock(reader: RowReader, stockNow: number | undefined) {
  const counted = reader.number('quantity', INTEGER);
  if (!counted || stockNow === undefined) return counted;
  const exported = reader.number('quantity_seen', INTEGER);
  if (!exported) {
    if (Number(counted) === stockNow) return undefined;
    reader.fail('quantity', 'csv-stock-seen-required', String(stockNow));
    return counted;
  }
  if (Number(counted) === Number(exported)) return undefined;
  if (stockNow !== Number(exported)) reader.fail('quantity', 'csv-stock-moved', String(stockNow));
  return counted;
}

/** A product's first row: the product's columns and its first variant's; undefined on any problem. */
function planProductRow(context: PlanContext, reader: RowReader, link: string): Planned | undefined {
  const { cell, text, number, bool, fail, row } = reader;
  const before = context.existing.get(link);

  const projectLink = cell('project', true) ?? before?.product.project;
  const projectId = projectLink === undefined ? undefined : context.projectIds.get(projectLink);
  if (projectLink === undefined) fail('project', 'field-required');
  else if (projectId === undefined) fail('project', 'project-unknown', projectLink);
  const categoryLinks = [...new Set(listOf(cell('categories')) ?? before?.product.categories ?? [])].sort();
  const unknownCategories = categoryLinks.filter((category) => !context.categoryIds.has(category));
  if (unknownCategories.length > 0) fail('categories', 'category-unknown', unknownCategories.join('|'));

  const price = number('price', PRICE);
  if (price === undefined && !before) fail('price', 'field-required');
  const sale = number('sale', PRICE, false);
  const weight = number('weight', INTEGER);
  // A product with options has its stock per variant (on each variant's row).
  const quantity = withOptions(context, before) ? undefined : countedStock(reader, before?.product.quantity);
  const flags = { visible: bool('visible'), weekSale: bool('week_sale'), envisioned: bool('envisioned') };

  const current = before?.product;
  const checked = productInput.safeParse({
    project: projectId,
    categories: categoryLinks.map((category) => context.categoryIds.get(category)),
    name_ru: text('name_ru', cell('name_ru'), current?.name_ru) ?? current?.name_ru,
    name_en: text('name_en', cell('name_en'), current?.name_en) ?? current?.name_en,
    desc_ru: text('desc_ru', row.value('desc_ru'), current?.desc_ru) ?? current?.desc_ru,
    desc_en: text('desc_en', row.value('desc_en'), current?.desc_en) ?? current?.desc_en,
    link,
    images: listOf(cell('images')) ?? current?.images,
    price: price ?? (current ? kopecksToRoubles(current.price) : undefined),
    sale: sale ?? (current?.sale == null ? null : kopecksToRoubles(current.sale)),
    weight: weight ?? current?.weight,
    quantity,
    quantityHardset: true,
    visible: flags.visible ?? current?.visible,
    weekSale: flags.weekSale ?? current?.week_sale,
    envisioned: flags.envisioned ?? current?.envisioned,
    release_at: cell('release_at') ?? current?.release_at,
    per_customer_limit: cell('per_customer_limit') ?? current?.per_customer_limit,
    ...Object.fromEntries(
      [...CUSTOMS_COLUMNS, ...BOX_COLUMNS].map((column) => [
        column,
        (column === 'customs_description'
          ? text(column, cell(column), current?.customs_description)
          : cell(column)) ?? current?.[column],
      ]),
    ),
  });
  if (!checked.success) {
    // The form's rules on the columns not refused already (a price that is no number is told once).
    const refused = new Set(reader.problems.map((error) => error.field));
    for (const issue of checked.error.issues) {
      const column = columnOf(issue.path[0]);
      if (!refused.has(column)) fail(column, issue.message);
    }
  }
  if (!checked.success || reader.problems.length > 0) {
    // The variant columns are checked too: the report names every error of the row at once.
    planVariant(
      context,
      reader,
      { ...(before ? { existing: before } : {}), changes: {}, variants: [] },
      true,
    );
    return undefined;
  }
  const input = checked.data;
  const product: CsvProduct = {
    project: projectLink ?? '',
    categories: categoryLinks,
    name_ru: input.name_ru,
    name_en: input.name_en,
    price: roublesToKopecks(input.price),
    sale: input.sale === null ? null : roublesToKopecks(input.sale),
    weight: input.weight,
    quantity: input.quantity ?? current?.quantity ?? 0,
    visible: input.visible,
    week_sale: input.weekSale,
    envisioned: input.envisioned,
    desc_ru: sanitizeDescription(input.desc_ru),
    desc_en: sanitizeDescription(input.desc_en),
    images: input.images,
    release_at: input.release_at?.toISOString() ?? '',
    per_customer_limit: input.per_customer_limit ?? null,
    hs_code: input.hs_code ?? null,
    origin_country: input.origin_country ?? null,
    customs_description: input.customs_description ?? null,
    net_weight: input.net_weight ?? null,
    box_length: input.box_length ?? null,
    box_width: input.box_width ?? null,
    box_height: input.box_height ?? null,
  };
  const changes: Planned['changes'] = {};
  if (current) {
    for (const field of FIELDS) {
      if (!sameValue(current[field], product[field]))
        changes[field] = [shown(field, current[field]), shown(field, product[field])];
    }
  }
  const entry: Planned = {
    line: row.line,
    link,
    ...(before ? { existing: before } : {}),
    product,
    changes,
    quantityGiven: input.quantity !== undefined,
    variants: [],
  };
  planVariant(context, reader, entry, true);
  return reader.problems.length > 0 ? undefined : entry;
}

/** The row's variant columns, for `entry`'s product: its first row (`first`) or a following one. */
function planVariant(
  context: PlanContext,
  reader: RowReader,
  entry: Pick<Planned, 'existing' | 'changes' | 'variants'>,
  first: boolean,
) {
  const { cell, text, number, fail } = reader;
  const sku = cell('sku', true);
  if (sku === undefined) {
    if (!first) fail('sku', 'field-required');
    return;
  }
  if (sku.length > 80 || !/^[\p{L}\p{N}._/-]+$/u.test(sku)) return fail('sku', 'sku-invalid', sku);
  if (context.skusSeen.has(sku)) return fail('sku', 'sku-taken', sku);
  context.skusSeen.add(sku);
  const list = entry.existing ? context.variantsOf.get(entry.existing.id) : undefined;
  const named = list?.find((variant) => variant.sku === sku);
  // The one SKU of a product without options may be renamed on its row.
  const variant = named ?? (first && !withOptions(context, entry.existing) ? list?.[0] : undefined);
  if (!variant && !(first && !entry.existing)) return fail('sku', 'csv-variant-unknown', sku);
  const owner = context.skuOwners.get(sku);
  if (!named && owner !== undefined) return fail('sku', 'sku-taken', sku);
  const moneyCell = (column: 'variant_price' | 'variant_sale', current: Kopecks | null) => {
    const value = number(column, PRICE, false);
    return value === undefined ? current : value === '' ? null : roublesToKopecks(Number(value));
  };
  const price = moneyCell('variant_price', variant?.price ?? null);
  const sale = moneyCell('variant_sale', variant?.sale ?? null);
  const weightCell = number('variant_weight', INTEGER, false);
  const weight =
    weightCell === undefined ? (variant?.weight ?? null) : weightCell === '' ? null : Number(weightCell);
  if (weight !== null && weight < 0) fail('variant_weight', 'number-invalid');
  if (sale !== null && price === null) fail('variant_sale', 'sale-needs-price');
  else if (sale !== null && price !== null && sale >= price) fail('variant_sale', 'sale-not-below-price');
  if (price !== null && price <= 0) fail('variant_price', 'number-invalid');
  const customsChecked = variantCustomsSchema.safeParse(
    Object.fromEntries(
      VARIANT_CUSTOMS.map(([field, column]) => [
        field,
        (column === 'variant_customs_description'
          ? text(column, cell(column), variant?.customs.customs_description)
          : cell(column)) ??
          variant?.customs[field] ??
          null,
      ]),
    ),
  );
  if (!customsChecked.success)
    for (const issue of customsChecked.error.issues) fail(`variant_${String(issue.path[0])}`, issue.message);
  const customs = Object.fromEntries(
    CUSTOMS_COLUMNS.map((field) => [field, (customsChecked.success && customsChecked.data[field]) || null]),
  ) as CsvVariant['customs'];
  const quantityCell = withOptions(context, entry.existing)
    ? countedStock(reader, variant?.quantity)
    : undefined;
  const quantity = quantityCell === undefined || quantityCell === '' ? undefined : Number(quantityCell);
  if (quantity !== undefined && quantity < 0) fail('quantity', 'number-invalid');
  const step: VariantStep = {
    ...(variant ? { id: variant.id } : {}),
    sku,
    price,
    sale,
    weight,
    ...(quantity === undefined ? {} : { quantity }),
    customs,
    ...(variant ? { seen: variant.quantity } : {}),
  };
  if (!variant) {
    entry.variants.push(step);
    return;
  }
  const compared: Array<[string, unknown, unknown]> = [
    ['sku', variant.sku, sku],
    ['variant_price', variant.price, price],
    ['variant_sale', variant.sale, sale],
    ['variant_weight', variant.weight, weight],
    ['quantity', variant.quantity, quantity ?? variant.quantity],
    ...VARIANT_CUSTOMS.map(([field, column]): [string, unknown, unknown] => [
      column,
      variant.customs[field],
      customs[field],
    ]),
  ];
  const changed = compared.filter(([, was, now]) => !sameValue(was, now));
  for (const [column, was, now] of changed)
    entry.changes[`${variant.sku} ${column}`] =
      column === 'variant_price' || column === 'variant_sale'
        ? [
            typeof was === 'number' ? kopecksToRoubles(was) : was,
            typeof now === 'number' ? kopecksToRoubles(now) : now,
          ]
        : [was, now];
  if (changed.length > 0) entry.variants.push(step);
}
