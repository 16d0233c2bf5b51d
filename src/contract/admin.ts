import { email, USER_ROLES } from './accounts.ts';
import { boxFields, customsFields } from './customs.ts';
import { LOCALES, type Locale } from './locale.ts';
import { roublesToKopecks } from './money.ts';
import { DATABASE_INT_MAX, wireNumber } from './numbers.ts';
import { ORDER_STATUS, PAID_STATUSES } from './order-status.ts';
import { z } from './zod.ts';

/** Wire shapes of the back office (`/api/admin/*`). Prices are roubles, weights grams. */

/** HTML checkboxes send '1' or 'on' when checked and nothing when not; JSON sends booleans. */
export const checkbox = z.preprocess(
  (value) => value === true || value === '1' || value === 'on' || value === 'true' || value === 1,
  z.boolean(),
);

const text = (max: number) =>
  z.string({ error: 'field-required' }).trim().min(1, 'field-required').max(max, 'field-too-long');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'field-too-long')
    .optional()
    .transform((value) => value || null);

export const link = z
  .string({ error: 'field-required' })
  .trim()
  .toLowerCase()
  .min(1, 'field-required')
  .max(120, 'field-too-long')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'link-invalid');

const money = wireNumber(
  z.coerce.number({ error: 'number-invalid' }).min(0, 'number-invalid').max(10_000_000, 'number-invalid'),
);
const optionalMoney = z.preprocess(
  (value) => (value === '' || value === null || value === undefined ? null : value),
  money.nullable(),
);
const count = wireNumber(
  z.coerce
    .number({ error: 'number-invalid' })
    .int('number-invalid')
    .min(-DATABASE_INT_MAX, 'number-invalid')
    .max(DATABASE_INT_MAX, 'number-invalid'),
);
const id = wireNumber(
  z.coerce
    .number({ error: 'not-found' })
    .int('not-found')
    .positive('not-found')
    .max(DATABASE_INT_MAX, 'not-found'),
);
/** Repeated form fields (`categories=1&categories=2`) or a JSON array. */
const idList = (max: number) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value]),
    z.array(id).max(max, 'field-too-long'),
  );
/**
 * Units one customer may buy (ADR 0041): a whole number from 1, or empty/null for no limit of its
 * own. Absent leaves a saved limit as it is.
 */
const perCustomerLimit = z.preprocess(
  (value) => (value === '' || value === null ? null : value),
  wireNumber(
    z.coerce
      .number({ error: 'limit-invalid' })
      .int('limit-invalid')
      .min(1, 'limit-invalid')
      .max(100_000, 'limit-invalid'),
  )
    .nullable()
    .optional(),
);
/** A moment with its offset (`2026-12-01T12:00:00.000Z`), as the browser sends a local time it converted. */
const moment = z
  .string({ error: 'date-invalid' })
  .trim()
  .pipe(z.iso.datetime({ offset: true, error: 'date-invalid' }))
  .transform((value) => new Date(value));
const fileList = z.preprocess(
  (value) => (value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string().regex(/^[\w-]+\.(webp|png|jpe?g|gif|avif)$/i, 'file-invalid')).max(12, 'field-too-long'),
);

export const idParams = z.object({ id });

/** Deleting a category: `moveTo` the category its products go to (refused without it when it has some). */
export const categoryDeleteQuery = z.object({
  moveTo: z.preprocess((value) => (value === '' ? undefined : value), id.optional()),
  locale: z.enum(LOCALES).optional(),
});

/** A category's deletion refused (409 `category-has-products`): how many products it holds. */
export const categoryHoldsProducts = z.object({ products: z.number().int() });

/**
 * The version of a record an editor started from (ADR 0022). Every edit names it; a save made from
 * an older version is refused with 409 `record-changed` instead of overwriting someone else's change.
 */
const version = wireNumber(
  z.coerce
    .number({ error: 'version-required' })
    .int('version-required')
    .positive('version-required')
    .max(DATABASE_INT_MAX, 'version-required'),
).describe('The version the editor loaded; a stale one gets 409 record-changed');
const versioned = { version };

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  search: z.string().trim().max(200).optional(),
});

/**
 * The audit log's filters: a kind of record and its id, the staff member who made the change, and a
 * period (`from` ≤ date < `to`, moments the browser converted from the staff member's own days).
 * Empty fields filter nothing.
 */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);
export const auditQuery = pageQuery.extend({
  entity: z.string().max(40).optional(),
  entityId: z.string().max(40).optional(),
  actorId: z.preprocess(blankAsAbsent, z.coerce.number().int().positive().max(DATABASE_INT_MAX).optional()),
  from: z.preprocess(blankAsAbsent, moment.optional()),
  to: z.preprocess(blankAsAbsent, moment.optional()),
});

export const projectInput = z.object({
  name_ru: text(200),
  name_en: text(200),
  link,
  image: optionalText(200),
  visible: checkbox.default(true),
  position: count.default(0),
});

export const projectEdit = projectInput.extend(versioned);

export const categoryInput = z.object({
  name_ru: text(200),
  name_en: text(200),
  link,
  visible: checkbox.default(true),
  position: count.default(0),
  /** The size guide the product page's picker opens (HTML, sanitized on write); absent: unchanged. */
  size_guide_ru: z.string().max(50_000, 'field-too-long').optional(),
  size_guide_en: z.string().max(50_000, 'field-too-long').optional(),
});

export const categoryEdit = categoryInput.extend(versioned);

const productFields = z.object({
  project: id.describe('Project id (required)'),
  categories: idList(500),
  name_ru: text(300),
  name_en: text(300),
  desc_ru: z.string().max(50_000, 'field-too-long').default(''),
  desc_en: z.string().max(50_000, 'field-too-long').default(''),
  link,
  images: fileList,
  price: money,
  sale: optionalMoney,
  weight: count.pipe(z.number().min(0, 'number-invalid').max(100_000, 'number-invalid')).default(0),
  /**
   * Units received (positive) or written off (negative), or the counted stock when quantityHardset
   * is on; unchanged when absent. Each change is one movement of the stock ledger (ADR 0056).
   */
  quantity: z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : value),
    count.optional(),
  ),
  quantityHardset: checkbox.default(false),
  /** The stock the form showed: a count over a figure that has moved since is refused (409 stock-moved). */
  quantity_seen: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    count.pipe(z.number().min(0, 'number-invalid')).optional(),
  ),
  /** Why the stock changes (a delivery, a damaged unit): kept with the movement. */
  stock_note: z.string().trim().max(500, 'field-too-long').optional(),
  visible: checkbox.default(true),
  weekSale: checkbox.default(false),
  envisioned: checkbox.default(false),
  position: count.default(0),
  /**
   * When a product outside a drop goes on sale (before it: announced only); empty clears it,
   * absent leaves it. A product in a drop has the drop's time whatever is sent.
   */
  release_at: z.preprocess((value) => (value === '' ? null : value), moment.nullable().optional()),
  per_customer_limit: perCustomerLimit,
  ...customsFields,
  ...boxFields,
});

function productRules(value: z.infer<typeof productFields>, context: z.RefinementCtx) {
  // A product shoppers can order needs a price; a hidden or envisioned one may wait for it.
  if (value.visible && !value.envisioned && roublesToKopecks(value.price) <= 0) {
    context.addIssue({ code: 'custom', path: ['price'], message: 'price-required' });
  }
  if (value.sale !== null && value.sale >= value.price) {
    context.addIssue({ code: 'custom', path: ['sale'], message: 'sale-not-below-price' });
  }
  if (value.quantityHardset && value.quantity !== undefined && value.quantity < 0) {
    context.addIssue({ code: 'custom', path: ['quantity'], message: 'number-invalid' });
  }
}

export const productInput = productFields.superRefine(productRules);
export const productEdit = productFields.extend(versioned).superRefine(productRules);

/** How the back office's products list can be ordered; `new` (newest first) is the default. */
export const PRODUCT_LIST_SORTS = [
  'new',
  'old',
  'name',
  'price-asc',
  'price-desc',
  'stock-asc',
  'stock-desc',
] as const;
export type ProductListSort = (typeof PRODUCT_LIST_SORTS)[number];
/** `low`: some variant is running out (1 to LOW_STOCK_UNITS units); `out`: none left at all. */
export const PRODUCT_STOCK_FILTERS = ['low', 'out'] as const;
/** Running out means this many units left or fewer (the dashboard's low-stock list too). */
export const LOW_STOCK_UNITS = 3;

const optionalId = z.preprocess((value) => (value === '' ? undefined : value), id.optional());

/** The products list's search, filters, sort and page, as its URL carries them. */
export const productListQuery = pageQuery.extend({
  project: optionalId,
  category: optionalId,
  /** Hidden products only. */
  hidden: checkbox.optional(),
  /** Envisioned products only. */
  envisioned: checkbox.optional(),
  stock: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(PRODUCT_STOCK_FILTERS, { error: 'request-invalid' }).optional(),
  ),
  sort: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(PRODUCT_LIST_SORTS, { error: 'request-invalid' }).default('new'),
  ),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

/** Products one bulk change may name at once: a page of the list, and then some. */
export const MAX_BULK_PRODUCTS = 200;
/** A bulk price change: from −90 % (a tenth of the price left) to +1000 %. */
export const BULK_PRICE_PERCENT = { min: -90, max: 1000 } as const;

const productIds = z.preprocess(
  (value) => (value === undefined || value === '' ? [] : Array.isArray(value) ? value : [value]),
  z
    .array(id)
    .min(1, 'products-required')
    .max(MAX_BULK_PRODUCTS, 'too-many-products')
    .transform((ids) => [...new Set(ids)]),
);

/**
 * One change to the products selected in the list: hide or show them, move them to a project or
 * into one category (replacing the categories they were in), or change their prices by a percent
 * (sale prices and variants' own prices too, each rounded to whole roubles).
 */
export const productBulkChange = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('hide'), ids: productIds }),
    z.object({ action: z.literal('show'), ids: productIds }),
    z.object({ action: z.literal('project'), ids: productIds, project: id }),
    z.object({ action: z.literal('category'), ids: productIds, category: id }),
    z.object({
      action: z.literal('price'),
      ids: productIds,
      percent: wireNumber(
        z.coerce
          .number({ error: 'percent-invalid' })
          .int('percent-invalid')
          .min(BULK_PRICE_PERCENT.min, 'percent-invalid')
          .max(BULK_PRICE_PERCENT.max, 'percent-invalid')
          .refine((percent) => percent !== 0, 'percent-invalid'),
      ),
    }),
  ],
  { error: 'bulk-action-invalid' },
);
export type ProductBulkChange = z.infer<typeof productBulkChange>;
export type ProductBulkAction = ProductBulkChange['action'] | 'delete';

/** Deleting the selected products (an admin's call): all of them, or none when one was ordered. */
export const productBulkDelete = z.object({ ids: productIds });

/**
 * The order search's status filter: 'action' the paid orders staff still have to handle (in
 * processing, processed, ready to ship, special: every paid status but shipped), '' any status,
 * '>2' any paid status (1, 3, 4, 5, 6; the spec's name kept), or one status.
 */
export const ORDER_STATUS_FILTERS = ['action', '', '>2', '0', '1', '2', '3', '4', '5', '6'] as const;
export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];
/** What the orders screen opens on: paid orders that need action, so a new paid order is never missed. */
export const DEFAULT_ORDER_STATUS_FILTER: OrderStatusFilter = 'action';

/** The statuses each filter shows (null: any). */
export const ORDER_FILTER_STATUSES: Record<OrderStatusFilter, readonly number[] | null> = {
  action: PAID_STATUSES.filter((status) => status !== ORDER_STATUS.shipped),
  '': null,
  '>2': PAID_STATUSES,
  '0': [0],
  '1': [1],
  '2': [2],
  '3': [3],
  '4': [4],
  '5': [5],
  '6': [6],
};

/** The spec's order search fields; also the filter of the orders CSV export. */
export const orderSearchFilters = z.object({
  id: z.preprocess((value) => (value === '' ? undefined : value), id.optional()),
  email: z.string().trim().max(254).optional(),
  firstName: z.string().trim().max(100).optional(),
  lastName: z.string().trim().max(100).optional(),
  country: z.string().trim().toUpperCase().max(2).optional(),
  deliveryMethod: z.enum(['', 'russian_post', 'boxberry', 'boxberry.courier']).optional(),
  status: z.enum(ORDER_STATUS_FILTERS).default(DEFAULT_ORDER_STATUS_FILTER),
  date: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2})?$|^$/, 'date-invalid')
    .optional()
    .describe('datetime-local: orders of that day'),
  /** Orders placed at or after this moment; the page converts its datetime-local in the manager's zone. */
  from: z.preprocess((value) => (value === '' ? undefined : value), moment.optional()),
  /** Orders placed before this moment (the period's end, not included). */
  to: z.preprocess((value) => (value === '' ? undefined : value), moment.optional()),
  product: z.string().trim().max(200).optional(),
});

export const orderSearchQuery = orderSearchFilters.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** The orders CSV's cell separators: `;` is what Excel in a Russian locale splits on, `,` elsewhere. */
export const ORDER_CSV_SEPARATORS = [';', ','] as const;
export type OrderCsvSeparator = (typeof ORDER_CSV_SEPARATORS)[number];
/** The separator a manager is offered first: Russian Excel's `;`, else `,`. */
export const defaultCsvSeparator = (locale: Locale): OrderCsvSeparator => (locale === 'ru' ? ';' : ',');

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * The orders CSV: the search's orders, texts in `locale`, cells split by `separator` (the
 * locale's default when absent), times in `timeZone` (the manager's; UTC when absent).
 */
export const orderCsvQuery = orderSearchFilters.extend({
  locale: z.enum(LOCALES).optional(),
  separator: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(ORDER_CSV_SEPARATORS).optional(),
  ),
  timeZone: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().max(64).refine(isTimeZone, 'time-zone-invalid').optional(),
  ),
});

/** The fields staff edit on an order. */
const orderFields = z.object({
  track_code: optionalText(100),
  delivery_cost_actual: optionalMoney,
  manager_comment: optionalText(5000),
  status: wireNumber(
    z.coerce
      .number({ error: 'status-invalid' })
      .int('status-invalid')
      .min(0, 'status-invalid')
      .max(6, 'status-invalid'),
  ),
});

/**
 * A refund staff ask for: `amount` in the order's currency (roubles or dollars, dot or comma
 * decimal), everything left when empty; `restock` the units of the order's variants to put back in
 * stock; `reason` why the order is cancelled, required when the refund asks for all that is left
 * (`refundEndsOrder`): kept in its history and told in the customer's refund mail.
 */
export const orderRefund = z.object({
  amount: z.preprocess(
    (value) =>
      value === '' || value === null
        ? undefined
        : typeof value === 'string'
          ? value.replace(',', '.')
          : value,
    wireNumber(
      z.coerce
        .number({ error: 'number-invalid' })
        .positive('refund-amount-too-large')
        .max(10_000_000, 'number-invalid')
        .multipleOf(0.01, 'number-invalid'),
    ).optional(),
  ),
  restock: z
    .array(
      z.object({
        variantId: id,
        count: wireNumber(
          z.coerce
            .number({ error: 'number-invalid' })
            .int('number-invalid')
            .min(0, 'number-invalid')
            .max(100_000, 'number-invalid'),
        ),
      }),
    )
    .max(500, 'field-too-long')
    .default([]),
  reason: optionalText(500),
});

export const refundParams = z.object({ id, refundId: id });

/** A dollar rate a manager sets by hand (ADR 0053): roubles per dollar, dot or comma decimal, four places. */
export const manualRateInput = z.object({
  rate: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().replace(',', '.') : value),
    wireNumber(
      z.coerce
        .number({ error: 'number-invalid' })
        .positive('rate-invalid')
        .max(100_000, 'rate-invalid')
        .multipleOf(0.0001, 'rate-invalid'),
    ),
  ),
});

/**
 * An order save names only the fields it changes, and the version it started from. With `base`
 * (the values those fields had when the editor loaded them) a save from an older version still
 * goes through when nobody changed those fields meanwhile: a track code and a manager comment
 * saved from two screens are both kept (ADR 0022).
 */
export const orderUpdate = orderFields.partial().extend({
  ...versioned,
  /** Why staff cancel the order (required with status 2): kept in its history and told in the customer's mail. */
  reason: optionalText(500),
  base: orderFields
    .partial()
    .optional()
    .describe('The values the changed fields had when the editor loaded them'),
});

export const partnerInput = z.object({
  name_ru: text(200),
  name_en: text(200),
  desc_ru: z.string().trim().max(5000).default(''),
  desc_en: z.string().trim().max(5000).default(''),
  image: optionalText(200),
  link: z.preprocess((value) => (value === '' ? null : value), z.url('url-invalid').nullable().default(null)),
  email: z.preprocess(
    (value) => (value === '' ? null : value),
    z.email('email-invalid').nullable().default(null),
  ),
  phone_number: optionalText(40),
  phone_number_mobile: optionalText(40),
  telegram: optionalText(100),
  messenger: optionalText(200),
  socials: z
    .array(z.object({ type: z.string().trim().min(1).max(30), link: z.url('url-invalid') }))
    .max(12)
    .default([]),
  visible: checkbox.default(true),
  position: count.default(0),
});

export const partnerEdit = partnerInput.extend(versioned);

export const hiddenInput = z.object({ hidden: checkbox });

// ── File manager ────────────────────────────────────────────────────────────────────────────────

/** One folder name of the file manager; a folder path is up to MAX_FOLDER_DEPTH of them joined by '/'. */
/**
 * A folder's name: lowercase letters of any script (Cyrillic included), digits, `-` and `_`. Lowercase
 * only, so two folders never differ by case alone (one folder on a case-insensitive disk).
 */
export const FOLDER_NAME = /^[\p{Ll}\p{Lo}\p{Nd}_-]{1,40}$/u;
export const MAX_FOLDER_DEPTH = 5;
/** Largest upload the file manager takes (the multipart limit and the service both check it). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * The segments of a folder path ('' is the root), or null when the path breaks the rule: no leading
 * or trailing slash, no empty segment, no dots, backslashes or percent signs, at most 5 deep.
 */
export function folderSegments(value: string): string[] | null {
  if (value === '') return [];
  const segments = value.split('/');
  if (segments.length > MAX_FOLDER_DEPTH) return null;
  return segments.every((segment) => FOLDER_NAME.test(segment)) ? segments : null;
}

const givenFolderPath = z
  .string({ error: 'path-invalid' })
  .max(300, 'path-invalid')
  .refine((value) => folderSegments(value) !== null, 'path-invalid')
  .describe("Folder path below the file manager's root, e.g. 'merch/2024'; '' is the root");
const folderPath = givenFolderPath.default('');

export const folderQuery = z.object({ path: folderPath });
export const folderInput = z.object({
  path: folderPath,
  name: z.string({ error: 'path-invalid' }).regex(FOLDER_NAME, 'path-invalid'),
});

/** A multipart file part as the server's multipart parser puts it into the body. */
const uploadedFile = z.object(
  {
    filename: z.string().max(1000),
    mimetype: z.string().max(200),
    // Not z.custom: the OpenAPI document is generated from these schemas and cannot show one.
    data: z
      .unknown()
      .refine((value) => value instanceof Uint8Array, 'file-required')
      .transform((value) => value as Uint8Array),
  },
  { error: 'file-required' },
);
export const fileUpload = z.object({ path: folderPath, file: uploadedFile });

/** Renames a file (the name the file manager shows) and/or moves it to another folder. */
export const fileUpdate = z.object({
  name: z
    .string({ error: 'field-required' })
    .trim()
    .min(1, 'field-required')
    .max(200, 'field-too-long')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
    .refine((value) => !/[\\/\u0000-\u001f\u007f]/.test(value), 'file-name-invalid')
    .optional(),
  folder: givenFolderPath.optional(),
});

/** Renames or moves a folder with everything in it: `to` is its new path. */
export const folderMove = z.object({ path: folderPath, to: folderPath });

/** The catalogue's own pictures, by where the shop shows them. */
export const CATALOGUE_PICTURE_KINDS = ['products', 'projects', 'partners'] as const;
export const cataloguePicturesQuery = z.object({
  kind: z.enum(CATALOGUE_PICTURE_KINDS, { error: 'request-invalid' }),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

// ── Content moderation ──────────────────────────────────────────────────────────────────────────

export const feedbackQuery = pageQuery.extend({
  unread: checkbox.default(false).describe('1: unread messages only'),
});
export const feedbackUpdate = z.object({ read: checkbox });

export const reviewsAdminQuery = pageQuery.extend({
  hidden: z.enum(['', '0', '1']).default('').describe("'1' hidden only, '0' visible only, '' all"),
});

// ── Search ──────────────────────────────────────────────────────────────────────────────────────

/** A search word the manager makes mean another word or phrase (`tee` → `t-shirt`). */
export const synonymInput = z.object({
  term: z
    .string({ error: 'field-required' })
    .trim()
    .toLowerCase()
    .min(1, 'field-required')
    .max(60, 'field-too-long')
    .regex(/^[\p{L}\p{N}]+$/u, 'synonym-word-invalid'),
  meaning: text(120).transform((value) => value.toLowerCase()),
});

export const searchStatsQuery = z.object({
  days: z.enum(['7', '30']).default('7').describe('Days counted back from today: 7 or 30'),
});

// ── Products CSV ────────────────────────────────────────────────────────────────────────────────

export const PRODUCT_CSV_COLUMNS = [
  'id',
  'link',
  'project',
  'categories',
  'name_ru',
  'name_en',
  'price',
  'sale',
  'weight',
  'quantity',
  'quantity_seen',
  'visible',
  'week_sale',
  'envisioned',
  'desc_ru',
  'desc_en',
  'images',
  'release_at',
  'per_customer_limit',
  'hs_code',
  'origin_country',
  'customs_description',
  'net_weight',
  'box_length',
  'box_width',
  'box_height',
  'sku',
  'options',
  'variant_price',
  'variant_sale',
  'variant_weight',
  'variant_hs_code',
  'variant_origin_country',
  'variant_customs_description',
  'variant_net_weight',
] as const;
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

export const csvImportQuery = z.object({
  dryRun: checkbox.default(false).describe('1: report what would change, change nothing'),
  locale: z.enum(LOCALES).optional().describe("The report's language; defaults to the negotiated one"),
});

/** A row of a products CSV the import refused or kept as it was: its line, column and why. */
const csvRowProblem = z.object({ line: z.number(), field: z.string(), message: z.string() });

/** A column's value as the CSV report shows it (prices in roubles, pictures and categories as lists). */
const csvCellValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

/** What a products CSV import changed (or, on a dry run or a refusal, would change). */
const csvImportReport = z.object({
  dryRun: z.boolean(),
  created: z.array(z.string()).describe('Links of the products the file adds'),
  updated: z
    .array(
      z.object({
        link: z.string(),
        changes: z
          .record(z.string(), z.tuple([csvCellValue, csvCellValue]))
          .describe('Before and after by column; a variant\'s by "SKU column"'),
      }),
    )
    .describe('Products the file changes'),
  unchanged: z.number().describe('Products the file names as they are'),
  errors: z.array(csvRowProblem).describe('Rows refused: any refuses the whole file'),
  warnings: z.array(csvRowProblem).describe('Fields kept as stored (characters Windows-1251 cannot hold)'),
});
export const csvImportResponse = csvImportReport.extend({ success: z.literal(true) });
/** 422 csv-rows-invalid: the report with the refused rows; nothing changed. */
export const csvImportRefusal = csvImportReport.extend({ success: z.literal(false), message: z.string() });

export type ProjectInput = z.infer<typeof projectInput>;
export type SynonymInput = z.infer<typeof synonymInput>;
export type CategoryInput = z.infer<typeof categoryInput>;
export type ProductInput = z.infer<typeof productInput>;
export type OrderSearchFilters = z.infer<typeof orderSearchFilters>;
export type OrderSearch = z.infer<typeof orderSearchQuery>;
export type OrderCsvQuery = z.infer<typeof orderCsvQuery>;
export type OrderUpdate = z.infer<typeof orderUpdate>;
export type OrderRefund = z.infer<typeof orderRefund>;
export type PartnerInput = z.infer<typeof partnerInput>;
/** Which record an edit saves over: its id and the version the editor loaded. */
export interface EditTarget {
  id: number;
  version: number;
}
export type FileUpload = z.infer<typeof fileUpload>;
export type FolderInput = z.infer<typeof folderInput>;

// ── Options and variants (issue 16) ─────────────────────────────────────────────────────────────

const swatch = z.preprocess(
  (value) =>
    value === '' || value === undefined ? null : typeof value === 'string' ? value.toLowerCase() : value,
  z
    .string()
    .regex(/^#[0-9a-f]{6}$/, 'swatch-invalid')
    .nullable(),
);
const optionalCount = (max: number) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? null : value),
    count.pipe(z.number().min(0, 'number-invalid').max(max, 'number-invalid')).nullable(),
  );

/** One value of an option, e.g. L or Red; `images` are the product's pictures that show this colour. */
export const optionValueInput = z.object({
  id: id.optional(),
  value_ru: text(60),
  value_en: text(60),
  swatch: swatch.default(null),
  images: fileList.default([]),
});

export const optionInput = z.object({
  id: id.optional(),
  kind: z.enum(['size', 'colour', 'other'], { error: 'option-kind-invalid' }).default('other'),
  name_ru: text(60),
  name_en: text(60),
  values: z.array(optionValueInput).min(1, 'option-values-required').max(40, 'field-too-long'),
});

/**
 * One variant row: `options` names its value of each option by the value's English text, in the
 * options' order (none for the default variant of a product without options). Price, sale and
 * weight null inherit the product's. Stock is never set over a figure that may have moved: a row
 * carries a receipt or write-off (`stock_change`) or a count with the figure it was counted over.
 */
export const variantInput = z.object({
  id: id.optional(),
  options: z.array(z.string().trim().max(60)).max(5).default([]),
  sku: z
    .string({ error: 'field-required' })
    .trim()
    .min(1, 'field-required')
    .max(80, 'field-too-long')
    .regex(/^[\p{L}\p{N}._/-]+$/u, 'sku-invalid'),
  price: optionalMoney,
  sale: optionalMoney,
  weight: optionalCount(100_000),
  /** Units received (positive) or written off (negative); a new row's are its first receipt. */
  stock_change: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    count.optional(),
  ),
  /** The counted stock, over `quantity_seen`, the figure the table showed (409 stock-moved if it moved). */
  quantity: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    count.pipe(z.number().min(0, 'number-invalid')).optional(),
  ),
  quantity_seen: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    count.pipe(z.number().min(0, 'number-invalid')).optional(),
  ),
  /** Units of this variant one customer may buy; empty: only the product's limit; absent: unchanged. */
  per_customer_limit: perCustomerLimit,
  /** Customs data where this variant differs from its product; empty: as the product. */
  ...customsFields,
});

/**
 * A product's options and variants, saved together over the product's version (ADR 0022): the
 * variant table of the product form. A product without options sends one variant with no values.
 */
export const productVariantsSave = z
  .object({
    version,
    options: z.array(optionInput).max(3, 'field-too-long').default([]),
    variants: z.array(variantInput).min(1, 'variants-required').max(300, 'field-too-long'),
  })
  .superRefine((value, context) => {
    value.variants.forEach((variant, index) => {
      if (variant.sale !== null && variant.price === null)
        context.addIssue({ code: 'custom', path: ['variants', index, 'sale'], message: 'sale-needs-price' });
      else if (variant.sale !== null && variant.price !== null && variant.sale >= variant.price)
        context.addIssue({
          code: 'custom',
          path: ['variants', index, 'sale'],
          message: 'sale-not-below-price',
        });
      if (variant.price !== null && roublesToKopecks(variant.price) <= 0)
        context.addIssue({ code: 'custom', path: ['variants', index, 'price'], message: 'number-invalid' });
      if (variant.id !== undefined && variant.quantity !== undefined && variant.quantity_seen === undefined)
        context.addIssue({
          code: 'custom',
          path: ['variants', index, 'quantity_seen'],
          message: 'field-required',
        });
    });
  });

export type ProductVariantsSave = z.infer<typeof productVariantsSave>;

/**
 * A stock change refused because units moved since the form showed them (409 stock-moved): the
 * variant, and its stock now, which the form shows for the next count.
 */
export const stockMovedRefusal = z.object({ variantId: z.number().int(), current: z.number().int() });

/** The movements of one variant of the product, or of all its variants when absent. */
export const stockMovementsQuery = z.object({
  variant: z.preprocess((value) => (value === '' ? undefined : value), id.optional()),
});
// ── Customers ───────────────────────────────────────────────────────────────────────────────────

export const customersQuery = pageQuery.describe(
  'Customers whose e-mail, name or phone contains `search`, newest accounts first',
);
export const customersExportQuery = customersQuery.omit({ page: true });

export const STAFF_NOTE_MAX_LENGTH = 2000;
export const staffNoteInput = z.object({
  body: z
    .string({ error: 'field-required' })
    .trim()
    .min(1, 'field-required')
    .max(STAFF_NOTE_MAX_LENGTH, 'field-too-long'),
});
export const customerBlock = z.object({ blocked: checkbox });

// ── Staff ───────────────────────────────────────────────────────────────────────────────────────

const staffRole = z.enum(['manager', 'admin'], { error: 'staff-role-invalid' });
export const staffInvite = z.object({ email, role: staffRole });
/** The secret of a mailed staff invitation link. */
export const invitationToken = z.object({
  token: z.string({ error: 'link-incomplete' }).trim().min(1, 'link-incomplete').max(200, 'link-incomplete'),
});
/** A staff member's new role; `customer` takes them off the staff. */
export const staffRoleUpdate = z.object({ role: z.enum(USER_ROLES, { error: 'staff-role-invalid' }) });

// ── Drops (issue 20, ADR 0041) ──────────────────────────────────────────────────────────────────

/**
 * A drop as the back office schedules it: names, the release time every product of it shares, the
 * minutes an unpaid order holding its units keeps them (empty: the shop's default) and the units
 * of each product one customer may buy (empty: no limit unless the product sets one).
 */
export const dropInput = z.object({
  name_ru: text(200),
  name_en: text(200),
  release_at: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .string({ error: (issue) => (issue.input === undefined ? 'release-time-required' : 'date-invalid') })
      .pipe(moment),
  ),
  hold_minutes: z.preprocess(
    (value) => (value === '' || value === null || value === undefined ? null : value),
    wireNumber(
      z.coerce
        .number({ error: 'hold-minutes-invalid' })
        .int('hold-minutes-invalid')
        .min(1, 'hold-minutes-invalid')
        .max(1440, 'hold-minutes-invalid'),
    ).nullable(),
  ),
  per_customer_limit: perCustomerLimit.transform((value) => value ?? null),
  products: idList(200),
});
export const dropEdit = dropInput.extend(versioned);
export type DropInput = z.infer<typeof dropInput>;

const names = { name_ru: z.string(), name_en: z.string() };
/** A saved drop as the editor reads the answer: its id (a new drop's page opens next). */
export const dropSaved = z.object({ drop: z.object({ id: z.number().int() }) });
/** A save refused because another upcoming drop holds some of the products: which, and where. */
export const dropProductsTaken = z.object({
  taken: z.array(
    z.object({ id: z.number().int(), ...names, drop: z.object({ id: z.number().int(), ...names }) }),
  ),
});

// ── Promo codes (issue 30, ADR 0058) ────────────────────────────────────────────────────────────

const optionalMoment = z.preprocess(
  (value) => (value === '' || value === null || value === undefined ? null : value),
  z.string({ error: 'date-invalid' }).pipe(moment).nullable(),
);
const optionalLimit = z.preprocess(
  (value) => (value === '' || value === null || value === undefined ? null : value),
  wireNumber(
    z.coerce
      .number({ error: 'limit-invalid' })
      .int('limit-invalid')
      .min(1, 'limit-invalid')
      .max(1_000_000, 'limit-invalid'),
  ).nullable(),
);

const promoCodeFields = z.object({
  code: z
    .string({ error: 'field-required' })
    .trim()
    .min(1, 'field-required')
    .max(40, 'field-too-long')
    .regex(/^[\p{L}\p{N}_-]+$/u, 'promo-code-invalid'),
  kind: z.enum(['percent', 'amount'], { error: 'promo-kind-invalid' }),
  value: wireNumber(
    z.coerce.number({ error: 'number-invalid' }).positive('number-invalid').max(10_000_000, 'number-invalid'),
  ),
  min_order: optionalMoney,
  starts_at: optionalMoment,
  ends_at: optionalMoment,
  total_limit: optionalLimit,
  per_customer_limit: optionalLimit,
  applies_to_drops: checkbox.default(false),
  projects: idList(500),
  categories: idList(500),
  products: idList(500),
});
const promoCodeRules = (input: z.infer<typeof promoCodeFields>, context: z.RefinementCtx) => {
  if (input.kind === 'percent' && (!Number.isInteger(input.value) || input.value > 100))
    context.addIssue({ code: 'custom', path: ['value'], message: 'promo-percent-invalid' });
  if (input.starts_at && input.ends_at && input.ends_at <= input.starts_at)
    context.addIssue({ code: 'custom', path: ['ends_at'], message: 'promo-window-invalid' });
};
/**
 * A promo code as staff create or edit it: percent (1–100) or roubles off, the minimum of goods it
 * applies to (roubles), its window, use limits (empty: none) and scope (none named: every product).
 */
export const promoCodeInput = promoCodeFields.superRefine(promoCodeRules);
export const promoCodeEdit = promoCodeFields.extend(versioned).superRefine(promoCodeRules);
export const promoCodePause = z.object({ paused: checkbox, ...versioned });
export type PromoCodeInput = z.infer<typeof promoCodeInput>;
