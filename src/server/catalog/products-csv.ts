import { parse } from 'csv-parse/sync';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { link as linkSchema, PRODUCT_CSV_COLUMNS, productInput } from '../../contract/admin.ts';
import { customsFields } from '../../contract/customs.ts';
import { translateError } from '../../contract/error-messages.ts';
import type { Locale } from '../../contract/locale.ts';
import { type Kopecks, roublesToKopecks } from '../../contract/money.ts';
import { z } from '../../contract/zod.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor, Transaction } from '../db/client.ts';
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
} from '../db/schema.ts';
import { Conflict, Invalid } from '../errors.ts';
import {
  CSV_BOM,
  csvDelimiter,
  csvLine,
  csvRoubles,
  type SpreadsheetEncoding,
  sameSaveForWindows1251,
  unescapeCsvCell,
  unholdableInWindows1251,
} from '../files/spreadsheet-csv.ts';
import type { MailShop } from '../mail/templates.ts';
import { boxColumns, boxWire, customsColumns, customsWire } from '../shipping/customs-fields.ts';
import { setEnvisioned } from './envisioned.ts';
import { sanitizeDescription } from './sanitize.ts';
import { changeStock } from './stock.ts';

/**
 * The catalogue as a spreadsheet. The export has one row per variant with the columns of
 * PRODUCT_CSV_COLUMNS: the project and categories by link (categories joined by `|`), prices in
 * roubles with a dot, booleans 1/0, images joined by `|`; cells a spreadsheet would run as formulas
 * are escaped (spreadsheet-csv.ts), and the import takes the escape off again.
 *
 * Variants (issue 16): a product's first row carries its columns and its first variant's; each
 * further variant has a row of its own with the same `link`, its variant columns and every other
 * product column BLANK (a following row with a product column filled in is refused as a repeated
 * link). Variant columns: `sku`, `options` (English option names and values, `Size=L;Colour=Red`,
 * informational: the import finds variants by SKU), `variant_price`, `variant_sale`,
 * `variant_weight` (empty: the product's), and `quantity`, which is the variant's stock on the rows
 * of a product with options and the product's stock, as before, for a product without options. A
 * product without options keeps its single row (with its default variant's SKU). The import
 * updates the variants it finds by SKU (the SKU of a product without options may be renamed on its
 * row); options and new variants are made in the product's variant table, so an unknown SKU is a
 * row error.
 *
 * An import matches rows to products by `link`: a new link creates a product, a known one updates
 * it; products missing from the file stay as they are. Only `link` is a required column, so a file
 * of `link,price` reprices products. An empty cell clears a text, the sale price, the categories or
 * the images; an empty price, weight, quantity or flag leaves the value as it is (a default for a
 * new product). `quantity` is the counted stock: a change is one `import` movement of the stock ledger
 * over the figure read in the import's transaction (ADR 0056). `release_at` is when the product goes on sale
 * (ISO 8601 with its offset, as the export writes it; empty: on sale now) and `per_customer_limit`
 * the units one customer may buy (empty: none of its own); a product in a drop keeps its drop's
 * release time (ADR 0041). The customs columns (`hs_code`, `origin_country`, `customs_description`,
 * `net_weight`, and a variant's own as `variant_*`, empty: the product's) and the box
 * (`box_length`/`box_width`/`box_height`, cm) follow the product form's rules (ADR 0057); an
 * empty cell clears one. `id` is informational and ignored. Every row is
 * checked with the admin form's own rules (`productInput`) before anything is written, and all
 * rows are applied in one transaction: one bad row and nothing changes.
 *
 * A file in Windows-1251 (Russian Excel's "CSV") cannot hold every character the shop stores (²,
 * ×, emoji): Excel wrote `?` or a look-alike for them. A text field whose stored value holds such a
 * character keeps its stored value, and the report warns about it (ADR 0065), so a round trip
 * through Excel neither reports a change nor saves "220 г/м?".
 */

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];

/** A product as the CSV sees it. */
interface CsvProduct {
  project: string;
  categories: string[];
  name_ru: string;
  name_en: string;
  price: Kopecks;
  sale: Kopecks | null;
  weight: number;
  quantity: number;
  visible: boolean;
  week_sale: boolean;
  envisioned: boolean;
  desc_ru: string;
  desc_en: string;
  images: string[];
  /** ISO 8601, or '' when the product is on sale. */
  release_at: string;
  per_customer_limit: number | null;
  hs_code: string | null;
  origin_country: string | null;
  customs_description: string | null;
  net_weight: number | null;
  box_length: number | null;
  box_width: number | null;
  box_height: number | null;
}

type Field = keyof CsvProduct;
const CUSTOMS_COLUMNS = ['hs_code', 'origin_country', 'customs_description', 'net_weight'] as const;
const BOX_COLUMNS = ['box_length', 'box_width', 'box_height'] as const;
type CustomsColumn = (typeof CUSTOMS_COLUMNS)[number];
/** A variant's own customs data, by its CSV column (`variant_hs_code` …). */
const VARIANT_CUSTOMS = CUSTOMS_COLUMNS.map((column) => [column, `variant_${column}`] as const);
const variantCustomsSchema = z.object(customsFields);
const FIELDS: Field[] = [
  'project',
  'categories',
  'name_ru',
  'name_en',
  'price',
  'sale',
  'weight',
  'quantity',
  'visible',
  'week_sale',
  'envisioned',
  'desc_ru',
  'desc_en',
  'images',
  'release_at',
  'per_customer_limit',
  ...CUSTOMS_COLUMNS,
  ...BOX_COLUMNS,
];

export interface CsvRowError {
  line: number;
  field: string;
  message: string;
}

/** A row error before translation: `message` is a key, `detail` names what was wrong. */
interface RowProblem extends CsvRowError {
  detail?: string;
}

export interface CsvReport {
  dryRun: boolean;
  created: string[];
  /** Changes by column; a variant's by `SKU column` (`wolf-s variant_price`). */
  updated: Array<{ link: string; changes: Record<string, [unknown, unknown]> }>;
  unchanged: number;
  errors: CsvRowError[];
  /** What the import kept as it was and why (fields a Windows-1251 file cannot hold). */
  warnings: CsvRowError[];
}

/** The text fields whose stored value a Windows-1251 file may have lost characters of. */
type KeptTextColumn = 'name_ru' | 'name_en' | 'desc_ru' | 'desc_en' | 'customs_description';

const flag = (value: boolean) => (value ? '1' : '0');

/** Products with their project, category and image lists, by link. */
async function loadProducts(db: Executor, links?: string[]) {
  if (links && links.length === 0) return new Map<string, { id: number; product: CsvProduct }>();
  const query = db
    .select({ row: products, project: projects.link })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(links ? inArray(products.link, links) : undefined)
    .orderBy(asc(products.id));
  // An import locks the products it names until it commits.
  const rows = await (links ? query.for('update', { of: products }) : query);
  const ids = rows.map(({ row }) => row.id);
  const [categoryRows, imageRows] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .select({ productId: productCategories.productId, link: categories.link })
            .from(productCategories)
            .innerJoin(categories, eq(categories.id, productCategories.categoryId))
            .where(inArray(productCategories.productId, ids))
            .orderBy(asc(categories.link)),
          db
            .select({ productId: productImages.productId, file: productImages.file })
            .from(productImages)
            .where(inArray(productImages.productId, ids))
            .orderBy(asc(productImages.position), asc(productImages.id)),
        ]);
  const listOf = <T extends { productId: number }>(list: T[], id: number) =>
    list.filter((item) => item.productId === id);
  return new Map(
    rows.map(({ row, project }) => [
      row.link,
      {
        id: row.id,
        product: {
          project,
          categories: listOf(categoryRows, row.id).map((category) => category.link),
          name_ru: row.nameRu,
          name_en: row.nameEn,
          price: row.price,
          sale: row.sale,
          weight: row.weight,
          quantity: row.quantity,
          visible: row.visible,
          week_sale: row.weekSale,
          envisioned: row.envisioned,
          desc_ru: row.descriptionRu,
          desc_en: row.descriptionEn,
          images: listOf(imageRows, row.id).map((image) => image.file),
          release_at: row.releaseAt?.toISOString() ?? '',
          per_customer_limit: row.perCustomerLimit,
          ...customsWire(row),
          ...boxWire(row),
        } satisfies CsvProduct,
      },
    ]),
  );
}

const money = (kopecks: Kopecks | null) => (kopecks === null ? '' : csvRoubles(kopecks));

export async function exportProductsCsv(db: Executor): Promise<string> {
  const all = await loadProducts(db);
  const variants = await loadVariants(
    db,
    [...all.values()].map((entry) => entry.id),
  );
  const rows = [...all].flatMap(([link, { id, product }]) => {
    const list = variants.get(id) ?? [];
    const withOptions = hasOptions(list);
    return list.map((variant, index) =>
      PRODUCT_CSV_COLUMNS.map((column): string => {
        switch (column) {
          case 'sku':
            return variant.sku;
          case 'options':
            return variant.options;
          case 'variant_price':
            return money(variant.price);
          case 'variant_sale':
            return money(variant.sale);
          case 'variant_weight':
            return variant.weight === null ? '' : String(variant.weight);
          case 'variant_hs_code':
          case 'variant_origin_country':
          case 'variant_customs_description':
          case 'variant_net_weight':
            return String(variant.customs[column.slice('variant_'.length) as CustomsColumn] ?? '');
          case 'quantity':
            return String(withOptions ? variant.quantity : product.quantity);
          case 'link':
            return link;
        }
        return index === 0 ? productCell(column, id, product) : '';
      }),
    );
  });
  return CSV_BOM + csvLine(PRODUCT_CSV_COLUMNS) + rows.map((row) => csvLine(row)).join('');
}

type ProductColumn = Exclude<Column, 'sku' | 'options' | `variant_${string}` | 'quantity' | 'link'>;

function productCell(column: ProductColumn, id: number, product: CsvProduct): string {
  switch (column) {
    case 'id':
      return String(id);
    case 'categories':
    case 'images':
      return product[column].join('|');
    case 'price':
      return csvRoubles(product.price);
    case 'sale':
      return product.sale === null ? '' : csvRoubles(product.sale);
    case 'weight':
      return String(product[column]);
    case 'per_customer_limit':
    case 'net_weight':
    case 'box_length':
    case 'box_width':
    case 'box_height':
      return product[column] === null ? '' : String(product[column]);
    case 'hs_code':
    case 'origin_country':
    case 'customs_description':
      return product[column] ?? '';
    case 'visible':
    case 'week_sale':
    case 'envisioned':
      return flag(product[column]);
    default:
      return product[column];
  }
}

// ── Import ──────────────────────────────────────────────────────────────────────────────────────

/** Roubles with a dot, or with the decimal comma a Russian spreadsheet writes (`1290,50`). */
const PRICE = /^\d{1,8}([.,]\d{1,2})?$/;
const INTEGER = /^-?\d{1,9}$/;
const TRUE = new Set(['1', 'true']);
const FALSE = new Set(['0', 'false']);

/** The `productInput` field an issue is about, as the CSV column it came from. */
const columnOf = (field: PropertyKey | undefined): string =>
  field === 'weekSale' ? 'week_sale' : field === 'quantityHardset' ? 'quantity' : String(field ?? 'csv');

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** How a value shows in the report: prices in roubles. */
const shown = (field: Field, value: unknown) =>
  (field === 'price' || field === 'sale') && typeof value === 'number' ? value / 100 : value;

interface Planned {
  line: number;
  link: string;
  existing?: { id: number; product: CsvProduct };
  product: CsvProduct;
  changes: Record<string, [unknown, unknown]>;
  quantityGiven: boolean;
  variants: VariantStep[];
}

/** A variant as the CSV sees it. */
interface CsvVariant {
  id: number;
  productId: number;
  sku: string;
  /** `Size=L;Colour=Red`, or '' for a default variant. */
  options: string;
  price: Kopecks | null;
  sale: Kopecks | null;
  weight: number | null;
  quantity: number;
  customs: ReturnType<typeof customsWire>;
}

/** What a row does to one variant: `id` undefined is the default variant of a new product. */
interface VariantStep {
  id?: number;
  sku: string;
  price: Kopecks | null;
  sale: Kopecks | null;
  weight: number | null;
  quantity?: number;
  customs: CsvVariant['customs'];
  /** The stock the plan read, which a counted `quantity` corrects. */
  seen?: number;
}

const VARIANT_COLUMNS = new Set<Column>([
  'link',
  'sku',
  'options',
  'variant_price',
  'variant_sale',
  'variant_weight',
  ...VARIANT_CUSTOMS.map(([, column]) => column),
  'quantity',
  'id',
]);

/** Variants of the products, in their order, by product id. */
async function loadVariants(db: Executor, productIds: number[]): Promise<Map<number, CsvVariant[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      sku: productVariants.sku,
      options: sql<string>`coalesce((select string_agg(o.name_en || '=' || ov.value_en, ';' order by o.position, o.id)
        from ${productVariantValues} pvv
        join ${productOptionValues} ov on ov.id = pvv.option_value_id
        join ${productOptions} o on o.id = ov.option_id
        where pvv.variant_id = "product_variants"."id"), '')`,
      price: productVariants.price,
      sale: productVariants.sale,
      weight: productVariants.weight,
      quantity: productVariants.quantity,
      hsCode: productVariants.hsCode,
      originCountry: productVariants.originCountry,
      customsDescription: productVariants.customsDescription,
      netWeight: productVariants.netWeight,
    })
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  const byProduct = new Map<number, CsvVariant[]>();
  for (const { hsCode, originCountry, customsDescription, netWeight, ...row } of rows) {
    const variant = {
      ...row,
      customs: customsWire({ hsCode, originCountry, customsDescription, netWeight }),
    };
    byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), variant]);
  }
  return byProduct;
}

/** A product has options unless its only variant is a default one. */
const hasOptions = (variants: readonly CsvVariant[] | undefined) =>
  variants !== undefined && (variants.length > 1 || variants.some((variant) => variant.options !== ''));

interface CsvRecord {
  line: number;
  cells: string[];
}

/** csv-parse's refusals the report names, by its error code; any other is `csv-invalid`. */
const PARSE_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'csv-quote-not-closed',
  CSV_INVALID_CLOSING_QUOTE: 'csv-quote-invalid',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'csv-quote-invalid',
};

/** Rows with the line each starts on (a quoted description may span lines). */
function readCsv(csv: string): { header: string[]; records: CsvRecord[] } | RowProblem {
  let parsed: Array<{ record: string[]; info: { lines: number; empty_lines: number } }>;
  try {
    // With `info` each record comes with its position; csv-parse's types do not model that option.
    parsed = parse(csv, {
      bom: true,
      delimiter: csvDelimiter(csv),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    const { lines, code } = error as { lines?: unknown; code?: unknown };
    return {
      line: typeof lines === 'number' ? lines : 0,
      field: 'csv',
      message: (typeof code === 'string' ? PARSE_ERRORS[code] : undefined) ?? 'csv-invalid',
    };
  }
  const [first, ...rest] = parsed;
  if (!first) return { line: 1, field: 'csv', message: 'csv-column-missing' };
  let endLine = first.info.lines;
  let emptyLines = first.info.empty_lines;
  const records = rest.map(({ record, info }) => {
    const line = endLine + 1 + (info.empty_lines - emptyLines);
    endLine = info.lines;
    emptyLines = info.empty_lines;
    return { line, cells: record.map(unescapeCsvCell) };
  });
  return { header: first.record.map((name) => name.trim().toLowerCase()), records };
}

/**
 * Checks every row and works out what would change, without writing. The products named in the
 * file are locked until the transaction ends.
 */
async function plan(transaction: Transaction, csv: string, encoding: SpreadsheetEncoding) {
  const errors: RowProblem[] = [];
  const warnings: RowProblem[] = [];
  const read = readCsv(csv);
  if ('line' in read) return { errors: [read], warnings, planned: [] };

  const { header, records } = read;
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  header.forEach((name, index) => {
    if (!known.has(name))
      errors.push({ line: 1, field: name || `#${index + 1}`, message: 'csv-column-unknown' });
    else if (header.indexOf(name) !== index)
      errors.push({ line: 1, field: name, message: 'csv-column-duplicate' });
  });
  if (!header.includes('link')) errors.push({ line: 1, field: 'link', message: 'csv-column-missing' });
  if (errors.length > 0) return { errors, warnings, planned: [] };

  const rows = records
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
    .map(({ line, cells }) => ({
      line,
      cells,
      value: (column: Column) => {
        const index = header.indexOf(column);
        return index === -1 ? undefined : (cells[index] ?? '');
      },
    }));

  const links = rows.map((row) => linkSchema.safeParse(row.value('link')));
  const existing = await loadProducts(
    transaction,
    links.flatMap((result) => (result.success ? [result.data] : [])),
  );
  const [projectRows, categoryRows] = await Promise.all([
    transaction.select({ id: projects.id, link: projects.link }).from(projects),
    transaction.select({ id: categories.id, link: categories.link }).from(categories),
  ]);
  const projectIds = new Map(projectRows.map((row) => [row.link, row.id]));
  const categoryIds = new Map(categoryRows.map((row) => [row.link, row.id]));
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
  const skusSeen = new Set<string>();

  const planned: Planned[] = [];
  const plannedByLink = new Map<string, Planned>();
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const rowErrors: RowProblem[] = [];
    const fail = (field: string, message: string, detail?: string) =>
      rowErrors.push({ line: row.line, field, message, ...(detail ? { detail } : {}) });
    const linkResult = links[index];
    if (!linkResult?.success) {
      fail('link', linkResult?.error.issues[0]?.message ?? 'link-invalid');
      errors.push(...rowErrors);
      return;
    }
    const link = linkResult.data;
    const before = existing.get(link);

    /** The cell, or undefined when the column is absent or (with `emptyIsUnset`) the cell is empty. */
    const cell = (column: Column, emptyIsUnset = false) => {
      const value = row.value(column)?.trim();
      return value === undefined || (emptyIsUnset && value === '') ? undefined : value;
    };
    /**
     * A text cell of a Windows-1251 file over a stored value that file cannot hold: the stored
     * value, with a warning saying whether the file changed anything else in it.
     */
    const text = (
      column: KeptTextColumn | 'variant_customs_description',
      incoming: string | undefined,
      stored: string | null | undefined,
    ) => {
      if (encoding !== 'windows-1251' || incoming === undefined || !stored) return incoming;
      const lost = unholdableInWindows1251(stored);
      if (lost.length === 0) return incoming;
      warnings.push({
        line: row.line,
        field: column,
        message: sameSaveForWindows1251(stored, incoming) ? 'csv-encoding-kept' : 'csv-encoding-change-kept',
        detail: lost.join(' '),
      });
      return stored;
    };
    const list = (value: string | undefined) =>
      value === undefined
        ? undefined
        : value
            .split('|')
            .map((item) => item.trim())
            .filter(Boolean);
    const number = (
      column: 'price' | 'sale' | 'weight' | 'quantity' | 'variant_price' | 'variant_sale' | 'variant_weight',
      pattern: RegExp,
      emptyIsUnset = true,
    ) => {
      const value = cell(column, emptyIsUnset);
      if (value === undefined || value === '') return value;
      if (!pattern.test(value)) fail(column, 'number-invalid');
      return pattern === PRICE ? value.replace(',', '.') : value;
    };
    const bool = (column: 'visible' | 'week_sale' | 'envisioned') => {
      const value = cell(column, true)?.toLowerCase();
      if (value === undefined) return undefined;
      if (TRUE.has(value)) return true;
      if (FALSE.has(value)) return false;
      fail(column, 'boolean-invalid');
      return undefined;
    };

    const withOptions = before !== undefined && hasOptions(variantsOf.get(before.id));

    /** The row's variant columns, for `entry`'s product: its first row (`first`) or a following one. */
    const planVariant = (entry: Pick<Planned, 'existing' | 'changes' | 'variants'>, first: boolean) => {
      const sku = cell('sku', true);
      if (sku === undefined) {
        if (!first) fail('sku', 'field-required');
        return;
      }
      if (sku.length > 80 || !/^[\p{L}\p{N}._/-]+$/u.test(sku)) return fail('sku', 'sku-invalid', sku);
      if (skusSeen.has(sku)) return fail('sku', 'sku-taken', sku);
      skusSeen.add(sku);
      const list = entry.existing ? variantsOf.get(entry.existing.id) : undefined;
      const named = list?.find((variant) => variant.sku === sku);
      // The one SKU of a product without options may be renamed on its row.
      const variant = named ?? (first && !withOptions ? list?.[0] : undefined);
      if (!variant && !(first && !entry.existing)) return fail('sku', 'csv-variant-unknown', sku);
      const owner = skuOwners.get(sku);
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
        for (const issue of customsChecked.error.issues)
          fail(`variant_${String(issue.path[0])}`, issue.message);
      const customs = Object.fromEntries(
        CUSTOMS_COLUMNS.map((field) => [
          field,
          (customsChecked.success && customsChecked.data[field]) || null,
        ]),
      ) as CsvVariant['customs'];
      const quantityCell = withOptions ? number('quantity', INTEGER) : undefined;
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
      if (variant) {
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
              ? [typeof was === 'number' ? was / 100 : was, typeof now === 'number' ? now / 100 : now]
              : [was, now];
        if (changed.length > 0) entry.variants.push(step);
      } else entry.variants.push(step);
    };

    if (seen.has(link)) {
      // A following row of the product: its variant columns only.
      const filled = header.filter(
        (column, cellIndex) =>
          !VARIANT_COLUMNS.has(column as Column) && (row.cells[cellIndex] ?? '').trim() !== '',
      );
      const entry = plannedByLink.get(link);
      if (filled.length > 0) fail('link', 'csv-link-duplicate');
      else if (entry) planVariant(entry, false);
      errors.push(...rowErrors);
      return;
    }
    seen.add(link);

    const projectLink = cell('project', true) ?? before?.product.project;
    const projectId = projectLink === undefined ? undefined : projectIds.get(projectLink);
    if (projectLink === undefined) fail('project', 'field-required');
    else if (projectId === undefined) fail('project', 'project-unknown', projectLink);
    const categoryLinks = [...new Set(list(cell('categories')) ?? before?.product.categories ?? [])].sort();
    const unknownCategories = categoryLinks.filter((category) => !categoryIds.has(category));
    if (unknownCategories.length > 0) fail('categories', 'category-unknown', unknownCategories.join('|'));

    const price = number('price', PRICE);
    if (price === undefined && !before) fail('price', 'field-required');
    const sale = number('sale', PRICE, false);
    const weight = number('weight', INTEGER);
    // A product with options has its stock per variant (on each variant's row).
    const quantity = withOptions ? undefined : number('quantity', INTEGER);
    const flags = { visible: bool('visible'), weekSale: bool('week_sale'), envisioned: bool('envisioned') };

    const current = before?.product;
    const checked = productInput.safeParse({
      project: projectId,
      categories: categoryLinks.map((category) => categoryIds.get(category)),
      name_ru: text('name_ru', cell('name_ru'), current?.name_ru) ?? current?.name_ru,
      name_en: text('name_en', cell('name_en'), current?.name_en) ?? current?.name_en,
      desc_ru: text('desc_ru', row.value('desc_ru'), current?.desc_ru) ?? current?.desc_ru,
      desc_en: text('desc_en', row.value('desc_en'), current?.desc_en) ?? current?.desc_en,
      link,
      images: list(cell('images')) ?? current?.images,
      price: price ?? (current ? current.price / 100 : undefined),
      sale: sale ?? (current?.sale == null ? null : current.sale / 100),
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
      const refused = new Set(rowErrors.map((error) => error.field));
      for (const issue of checked.error.issues) {
        const column = columnOf(issue.path[0]);
        if (!refused.has(column)) fail(column, issue.message);
      }
    }
    if (!checked.success || rowErrors.length > 0) {
      // The variant columns are checked too: the report names every error of the row at once.
      planVariant({ ...(before ? { existing: before } : {}), changes: {}, variants: [] }, true);
      errors.push(...rowErrors);
      return;
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
    planVariant(entry, true);
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      return;
    }
    planned.push(entry);
    plannedByLink.set(link, entry);
  });
  return { errors, warnings, planned, projectIds, categoryIds };
}

const releaseTime = (product: CsvProduct) =>
  product.release_at === '' ? null : new Date(product.release_at);

const auditView = (id: number, link: string, product: CsvProduct) => ({
  id,
  link,
  ...product,
  price: product.price / 100,
  sale: product.sale === null ? null : product.sale / 100,
});

async function apply(
  transaction: Transaction,
  step: Planned,
  ids: { projects: Map<string, number>; categories: Map<string, number> },
  context: { actorId: number; publicUrl: string; shop?: MailShop },
) {
  const { product, existing, changes } = step;
  const changed = (field: Field) => !existing || field in changes;
  const changedOf = <K extends Field>(fields: readonly K[]) =>
    Object.fromEntries(fields.filter(changed).map((field) => [field, product[field]])) as Partial<
      Pick<CsvProduct, K>
    >;
  const scalar = {
    ...(changed('project') ? { projectId: ids.projects.get(product.project) ?? 0 } : {}),
    ...(changed('name_ru') ? { nameRu: product.name_ru } : {}),
    ...(changed('name_en') ? { nameEn: product.name_en } : {}),
    ...(changed('desc_ru') ? { descriptionRu: product.desc_ru } : {}),
    ...(changed('desc_en') ? { descriptionEn: product.desc_en } : {}),
    ...(changed('price') ? { price: product.price } : {}),
    ...(changed('sale') ? { sale: product.sale } : {}),
    ...(changed('weight') ? { weight: product.weight } : {}),
    ...(changed('visible') ? { visible: product.visible } : {}),
    ...(changed('week_sale') ? { weekSale: product.week_sale } : {}),
    ...(changed('release_at') ? { releaseAt: releaseTime(product) } : {}),
    ...(changed('per_customer_limit') ? { perCustomerLimit: product.per_customer_limit } : {}),
    ...customsColumns(changedOf(CUSTOMS_COLUMNS)),
    ...boxColumns(changedOf(BOX_COLUMNS)),
  };

  let id: number;
  if (existing) {
    id = existing.id;
    await transaction
      .update(products)
      // A new version: an editor open on this product must not save over the import.
      .set({ ...scalar, version: sql`${products.version} + 1`, updatedAt: new Date() })
      .where(eq(products.id, id));
    if (changed('quantity') && step.quantityGiven) {
      const [variant] = await transaction
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.productId, id));
      if (variant)
        await changeStock(
          transaction,
          id,
          [{ variantId: variant.id, counted: product.quantity, seen: existing.product.quantity }],
          stockSource(context),
        );
    }
    // Through the wishlist rule: an envisioned product made available mails its fans, once.
    if (changed('envisioned')) await setEnvisioned(transaction, id, product.envisioned, context);
  } else {
    const [row] = await transaction
      .insert(products)
      .values({
        projectId: ids.projects.get(product.project) ?? 0,
        link: step.link,
        nameRu: product.name_ru,
        nameEn: product.name_en,
        descriptionRu: product.desc_ru,
        descriptionEn: product.desc_en,
        price: product.price,
        sale: product.sale,
        weight: product.weight,
        visible: product.visible,
        weekSale: product.week_sale,
        envisioned: product.envisioned,
        releaseAt: releaseTime(product),
        perCustomerLimit: product.per_customer_limit,
        ...customsColumns(product),
        ...boxColumns(product),
      })
      .returning({ id: products.id });
    if (!row) throw new Error('product insert returned nothing');
    id = row.id;
    const [variant] = await transaction
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, id));
    if (variant)
      await changeStock(
        transaction,
        id,
        [{ variantId: variant.id, delta: product.quantity }],
        stockSource(context),
      );
  }
  await applyVariants(transaction, id, step.variants, context);
  if (existing && changed('categories'))
    await transaction.delete(productCategories).where(eq(productCategories.productId, id));
  if (changed('categories') && product.categories.length > 0) {
    await transaction
      .insert(productCategories)
      .values(
        product.categories.map((link) => ({ productId: id, categoryId: ids.categories.get(link) ?? 0 })),
      );
  }
  if (existing && changed('images'))
    await transaction.delete(productImages).where(eq(productImages.productId, id));
  if (changed('images') && product.images.length > 0) {
    await transaction
      .insert(productImages)
      .values(product.images.map((file, position) => ({ productId: id, file, position })));
  }
  await recordAudit(transaction, {
    actorId: context.actorId,
    action: existing ? 'update' : 'create',
    entity: 'product',
    entityId: id,
    before: existing ? auditView(id, step.link, existing.product) : undefined,
    after: auditView(id, step.link, product),
  });
}

/**
 * The rows' variant changes, after the product's row was written (its lock first). SKUs are freed
 * before they are set, so two rows may swap theirs.
 */
async function applyVariants(
  transaction: Transaction,
  productId: number,
  steps: readonly VariantStep[],
  context: { actorId: number; shop?: MailShop },
) {
  if (steps.length === 0) return;
  const ids = steps.flatMap((step) => (step.id === undefined ? [] : [step.id]));
  if (ids.length > 0)
    await transaction
      .update(productVariants)
      .set({ sku: sql`${productVariants.sku} || '~' || ${productVariants.id}` })
      .where(inArray(productVariants.id, ids));
  for (const step of steps) {
    await transaction
      .update(productVariants)
      .set({
        sku: step.sku,
        price: step.price,
        sale: step.sale,
        weight: step.weight,
        ...customsColumns(step.customs),
        updatedAt: new Date(),
      })
      .where(
        step.id === undefined
          ? eq(productVariants.productId, productId)
          : and(eq(productVariants.id, step.id), eq(productVariants.productId, productId)),
      );
  }
  await changeStock(
    transaction,
    productId,
    steps.flatMap((step) =>
      step.id === undefined || step.quantity === undefined || step.seen === undefined
        ? []
        : [{ variantId: step.id, counted: step.quantity, seen: step.seen }],
    ),
    stockSource(context),
  );
}

/** The import's stock movements: reason `import`, by the staff member who applied the file. */
const stockSource = (context: { actorId: number; shop?: MailShop }) => ({
  reason: 'import' as const,
  actorId: context.actorId,
  ...(context.shop ? { shop: context.shop } : {}),
});

const isUniqueViolation = (error: unknown): boolean => {
  const code = (value: unknown) => (value as { code?: unknown } | undefined)?.code;
  return code(error) === '23505' || code((error as { cause?: unknown } | undefined)?.cause) === '23505';
};

/**
 * Checks a CSV file and, unless `dryRun`, applies it in one transaction. Returns the report; with
 * any row error nothing is applied and the report comes back as a 422 (`Invalid` with the report
 * in its details). Messages are in `locale`. A real import changes everything shown (services.writes
 * applies it).
 */
export async function importProductsCsv(
  db: Database,
  options: {
    csv: string;
    /** How the file was written (readSpreadsheetFile); UTF-8 when not told. */
    encoding?: SpreadsheetEncoding;
    dryRun: boolean;
    actorId: number;
    locale: Locale;
    context: { publicUrl: string; shop?: MailShop };
  },
): Promise<CsvReport> {
  const translate = ({ detail, ...error }: RowProblem): CsvRowError => {
    const text = translateError(options.locale, error.message);
    return { ...error, message: detail ? `${text} (${detail})` : text };
  };
  try {
    return await db.transaction(async (transaction) => {
      const result = await plan(transaction, options.csv, options.encoding ?? 'utf-8');
      const report: CsvReport = {
        dryRun: options.dryRun,
        created: result.planned.filter((step) => !step.existing).map((step) => step.link),
        updated: result.planned
          .filter((step) => step.existing && Object.keys(step.changes).length > 0)
          .map((step) => ({ link: step.link, changes: step.changes })),
        unchanged: result.planned.filter((step) => step.existing && Object.keys(step.changes).length === 0)
          .length,
        errors: result.errors.map(translate),
        warnings: result.warnings.map(translate),
      };
      if (report.errors.length > 0) {
        throw new Invalid('csv-rows-invalid', {}, undefined, { ...report });
      }
      if (options.dryRun || !result.projectIds || !result.categoryIds) return report;
      const ids = { projects: result.projectIds, categories: result.categoryIds };
      for (const step of result.planned) {
        if (step.existing && Object.keys(step.changes).length === 0) continue;
        await apply(transaction, step, ids, { actorId: options.actorId, ...options.context });
      }
      return report;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict('link-taken', { link: ['link-taken'] });
    throw error;
  }
}
