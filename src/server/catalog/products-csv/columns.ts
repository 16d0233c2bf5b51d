import type { PRODUCT_CSV_COLUMNS } from '../../../contract/admin.ts';
import type { Kopecks } from '../../../contract/money.ts';
import type { customsWire } from '../../shipping/customs-fields.ts';

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
 * over the figure read in the import's transaction (ADR 0056). The export writes the stock beside
 * it a second time as `quantity_seen` (the figure a count is made over, as the product form's): a `quantity` left as exported changes nothing, however the
 * stock moved since, and one typed over a figure that has moved since the export (an order, a
 * refund) is refused with the figure now, as the variant table refuses a stale count (ADR 0088). `release_at` is when the product goes on sale
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

export type Column = (typeof PRODUCT_CSV_COLUMNS)[number];

/** A product as the CSV sees it. */
export interface CsvProduct {
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

export type Field = keyof CsvProduct;
export const CUSTOMS_COLUMNS = ['hs_code', 'origin_country', 'customs_description', 'net_weight'] as const;
export const BOX_COLUMNS = ['box_length', 'box_width', 'box_height'] as const;
export type CustomsColumn = (typeof CUSTOMS_COLUMNS)[number];
/** A variant's own customs data, by its CSV column (`variant_hs_code` …). */
export const VARIANT_CUSTOMS = CUSTOMS_COLUMNS.map((column) => [column, `variant_${column}`] as const);
export const FIELDS: Field[] = [
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
export interface RowProblem extends CsvRowError {
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
export type KeptTextColumn = 'name_ru' | 'name_en' | 'desc_ru' | 'desc_en' | 'customs_description';

export interface Planned {
  line: number;
  link: string;
  existing?: { id: number; product: CsvProduct };
  product: CsvProduct;
  changes: Record<string, [unknown, unknown]>;
  quantityGiven: boolean;
  variants: VariantStep[];
}

/** A variant as the CSV sees it. */
export interface CsvVariant {
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
export interface VariantStep {
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

export const VARIANT_COLUMNS = new Set<Column>([
  'link',
  'sku',
  'options',
  'variant_price',
  'variant_sale',
  'variant_weight',
  ...VARIANT_CUSTOMS.map(([, column]) => column),
  'quantity',
  'quantity_seen',
  'id',
]);

/** A product has options unless its only variant is a default one. */
export const hasOptions = (variants: readonly CsvVariant[] | undefined) =>
  variants !== undefined && (variants.length > 1 || variants.some((variant) => variant.options !== ''));

export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
