import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { USER_ROLES } from '../../contract/accounts.ts';
import { STOCK_REASONS } from '../../contract/order-timeline.ts';

/**
 * The data model of the whole specification. Money is integer kopecks; texts shown to shoppers
 * have a Russian and an English column; visibility and week-sale are booleans here and become the
 * spec's status bit mask at the API edge.
 */

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** Optimistic lock of a record staff edit: a save names the version it started from, and one made
 *  from an older version is refused (409) instead of overwriting someone else's change. */
const version = () => integer('version').notNull().default(1);

// ── Accounts ────────────────────────────────────────────────────────────────────────────────────

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: USER_ROLES }).notNull().default('customer'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    locale: text('locale').notNull().default('ru'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phone: text('phone'),
    country: text('country'),
    city: text('city'),
    zip: text('zip'),
    address: text('address'),
    /** When staff blocked the account: it cannot sign in, and its sessions are gone. */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    /** TOTP second factor (RFC 6238) of a staff account: the secret, when it was confirmed, and the
     *  hashes of the unused recovery codes (ADR 0055). */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    totpRecoveryCodes: jsonb('totp_recovery_codes').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(sql`lower(${table.email})`),
    index('users_staff_idx').on(table.role).where(sql`${table.role} <> 'customer'`),
  ],
);

/** Server-side sessions; the cookie carries only the random id, the table is shared by all instances. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('sessions_user_idx').on(table.userId), index('sessions_expires_idx').on(table.expiresAt)],
);

/** Single-use e-mail confirmation and password-reset tokens, stored hashed. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('auth_tokens_hash_unique').on(table.tokenHash)],
);

// ── Catalogue ───────────────────────────────────────────────────────────────────────────────────

export const projects = pgTable('projects', {
  id: serial('id').primaryKey(),
  link: text('link').notNull().unique(),
  nameRu: text('name_ru').notNull(),
  nameEn: text('name_en').notNull(),
  image: text('image'),
  visible: boolean('visible').notNull().default(true),
  position: integer('position').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
});

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  link: text('link').notNull().unique(),
  nameRu: text('name_ru').notNull(),
  nameEn: text('name_en').notNull(),
  visible: boolean('visible').notNull().default(true),
  position: integer('position').notNull().default(0),
  /** The category's size guide (sanitized HTML, usually a table), opened from the size picker; '' for none. */
  sizeGuideRu: text('size_guide_ru').notNull().default(''),
  sizeGuideEn: text('size_guide_en').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
});

/**
 * A named launch: its products become orderable, and appear in lists and search, at `release_at`
 * (ADR 0041). Before it their pages show a countdown and a "remind me" button.
 */
export const drops = pgTable(
  'drops',
  {
    id: serial('id').primaryKey(),
    nameRu: text('name_ru').notNull(),
    nameEn: text('name_en').notNull(),
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
    /** Minutes an unpaid order holding a unit of this drop keeps it, or null for the shop's default. */
    holdMinutes: integer('hold_minutes'),
    /** Units of each of its products one customer may buy, unless the product sets its own. */
    perCustomerLimit: integer('per_customer_limit'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (table) => [
    index('drops_release_idx').on(table.releaseAt),
    check(
      'drops_hold_minutes_range',
      sql`${table.holdMinutes} is null or ${table.holdMinutes} between 1 and 1440`,
    ),
    check('drops_limit_positive', sql`${table.perCustomerLimit} is null or ${table.perCustomerLimit} >= 1`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    link: text('link').notNull().unique(),
    nameRu: text('name_ru').notNull(),
    nameEn: text('name_en').notNull(),
    descriptionRu: text('description_ru').notNull().default(''),
    descriptionEn: text('description_en').notNull().default(''),
    /** Kopecks; also the price of every variant without its own. */
    price: integer('price').notNull(),
    /** Sale price in kopecks, or null when not on sale; applies to variants without their own price. */
    sale: integer('sale'),
    /** Grams, for delivery cost; also the weight of every variant without its own. */
    weight: integer('weight').notNull().default(0),
    /**
     * Units in stock over all the product's variants: the sum of `product_variants.quantity`, kept
     * by triggers (migration 0006). Stock is written on variants only; a direct change is refused.
     * An insert's quantity becomes the stock of the default variant the database creates for it.
     */
    quantity: integer('quantity').notNull().default(0),
    visible: boolean('visible').notNull().default(true),
    weekSale: boolean('week_sale').notNull().default(false),
    /** Envisioned items cannot be bought, only wishlisted; fans are told when they are made. */
    envisioned: boolean('envisioned').notNull().default(false),
    position: integer('position').notNull().default(0),
    /**
     * Before this moment the product is announced only: not orderable, not in lists or search.
     * Null once released or when never scheduled. A product in a drop has the drop's time, kept by
     * triggers (migration 0009); `catalog/release.ts` holds the one rule that reads it.
     */
    releaseAt: timestamp('release_at', { withTimezone: true }),
    dropId: integer('drop_id').references(() => drops.id, { onDelete: 'set null' }),
    /** Units one customer may buy (over all variants), or null for the drop's limit or none. */
    perCustomerLimit: integer('per_customer_limit'),
    /** VAT code of 54-FZ receipts (`vat20`, `none`, …), or null for the shop's default (ADR 0051). */
    vatRate: text('vat_rate'),
    /** Customs data of parcels abroad (CN23): HS code of 6–10 digits, ISO 3166 alpha-2 origin,
     *  an English description, net weight in grams; variants may override each (ADR 0057). */
    hsCode: text('hs_code'),
    originCountry: text('origin_country'),
    customsDescription: text('customs_description'),
    netWeight: integer('net_weight'),
    /** Box size in centimetres, or null for the shop's default parcel size. */
    boxLength: integer('box_length'),
    boxWidth: integer('box_width'),
    boxHeight: integer('box_height'),
    /**
     * What search matches, weighted: name A, project and category names B, description C. Kept by
     * triggers (migration 0005, `product_search_document`): a generated column cannot read the
     * project's and categories' names.
     */
    searchVector: tsvector('search_vector'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (table) => [
    index('products_project_idx').on(table.projectId),
    index('products_search_idx').using('gin', table.searchVector),
    index('products_week_sale_idx').on(table.position, table.id).where(sql`${table.weekSale}`),
    index('products_release_idx').on(table.releaseAt).where(sql`${table.releaseAt} is not null`),
    index('products_drop_idx').on(table.dropId).where(sql`${table.dropId} is not null`),
    // The back office's products list: each sort walks its index; hidden ones are few (migration 0012).
    index('products_name_ru_idx').on(table.nameRu, table.id),
    index('products_name_en_idx').on(table.nameEn, table.id),
    index('products_price_idx').on(table.price, table.id),
    index('products_quantity_idx').on(table.quantity, table.id),
    index('products_hidden_idx').on(table.id).where(sql`not ${table.visible}`),
    // The back office's search: a part of either name or of the link (admin/catalogue.ts, `productListFilter`).
    index('products_admin_search_idx').using(
      'gin',
      sql`(${table.nameRu} || ' ' || ${table.nameEn} || ' ' || ${table.link}) gin_trgm_ops`,
    ),
    check(
      'products_limit_positive',
      sql`${table.perCustomerLimit} is null or ${table.perCustomerLimit} >= 1`,
    ),
    check('products_quantity_not_negative', sql`${table.quantity} >= 0`),
    check('products_hs_code_digits', sql`${table.hsCode} is null or ${table.hsCode} ~ '^[0-9]{6,10}$'`),
    check(
      'products_box_positive',
      sql`(${table.boxLength} is null or ${table.boxLength} > 0) and (${table.boxWidth} is null or ${table.boxWidth} > 0) and (${table.boxHeight} is null or ${table.boxHeight} > 0)`,
    ),
    check('products_price_not_negative', sql`${table.price} >= 0`),
    // A product shoppers can order has a price; a hidden or envisioned one may not have one yet.
    check(
      'products_orderable_has_price',
      sql`${table.price} > 0 or not ${table.visible} or ${table.envisioned}`,
    ),
    check(
      'products_sale_below_price',
      sql`${table.sale} is null or (${table.sale} >= 0 and ${table.sale} < ${table.price})`,
    ),
  ],
);

export const productCategories = pgTable(
  'product_categories',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.categoryId] }),
    index('product_categories_category_idx').on(table.categoryId, table.productId),
  ],
);

/**
 * Every word (three letters or more) of every product, project and category name in both
 * languages, kept by triggers: search corrects a misspelt word to the closest of these before the
 * full-text query. Words of renamed or deleted records stay; they can only suggest a word that
 * finds nothing.
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (table) => [
  index('search_words_trgm_idx').using('gin', sql`${table.word} gin_trgm_ops`),
]);

/**
 * Words the manager makes search read as other words (`tee` → `t-shirt`, `кофта` → `худи`): a
 * query word equal to `term` also matches what `meaning` matches. One way; both lower case.
 */
export const searchSynonyms = pgTable(
  'search_synonyms',
  {
    id: serial('id').primaryKey(),
    term: text('term').notNull(),
    meaning: text('meaning').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('search_synonyms_term_meaning_unique').on(table.term, table.meaning)],
);

/**
 * How often shoppers searched for what, per day: the normalised text (no shopper, no address), the
 * searches of that day and how many products the last one found. One row per day and text, kept
 * for `SEARCH_STATS_DAYS` (catalog/search-stats.ts).
 */
export const searchQueries = pgTable(
  'search_queries',
  {
    day: date('day', { mode: 'string' }).notNull(),
    query: text('query').notNull(),
    searches: integer('searches').notNull().default(1),
    results: integer('results').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.query] })],
);

// ── Options and variants (ADR 0036) ─────────────────────────────────────────────────────────────

/** How the shop shows an option: sizes as buttons (and a list filter), colours as swatches. */
export const OPTION_KINDS = ['size', 'colour', 'other'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

/** An option a product comes in (Size, Colour), in both languages, in the order the picker shows. */
export const productOptions = pgTable(
  'product_options',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: OPTION_KINDS }).notNull().default('other'),
    nameRu: text('name_ru').notNull(),
    nameEn: text('name_en').notNull(),
    position: integer('position').notNull().default(0),
  },
  (table) => [index('product_options_product_idx').on(table.productId, table.position)],
);

/** One value of an option (L, Red). A colour value may carry a swatch and have pictures linked to it. */
export const productOptionValues = pgTable(
  'product_option_values',
  {
    id: serial('id').primaryKey(),
    optionId: integer('option_id')
      .notNull()
      .references(() => productOptions.id, { onDelete: 'cascade' }),
    valueRu: text('value_ru').notNull(),
    valueEn: text('value_en').notNull(),
    /** `#rrggbb` of a colour's swatch, or null. */
    swatch: text('swatch'),
    position: integer('position').notNull().default(0),
  },
  (table) => [
    index('product_option_values_option_idx').on(table.optionId, table.position),
    uniqueIndex('product_option_values_en_unique').on(table.optionId, table.valueEn),
    uniqueIndex('product_option_values_ru_unique').on(table.optionId, table.valueRu),
    check('product_option_values_swatch', sql`${table.swatch} is null or ${table.swatch} ~ '^#[0-9a-f]{6}$'`),
  ],
);

/**
 * What a shopper buys: one combination of the product's option values (none for a product without
 * options: its default variant, which the database creates with the product). Stock lives here;
 * price, sale and weight are the product's unless the variant has its own.
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    /** Own price in kopecks, or null for the product's price and sale. */
    price: integer('price'),
    /** Own sale price in kopecks (only with an own price), or null. */
    sale: integer('sale'),
    /** Own weight in grams, or null for the product's. */
    weight: integer('weight'),
    /**
     * Units in stock, never below zero; written only by catalog/stock.ts with its ledger row (ADR
     * 0056), except the opening figures of seeded and test catalogues, which recordOpeningStock books.
     */
    quantity: integer('quantity').notNull().default(0),
    /** Units of this variant one customer may buy, or null: only the product's limit applies. */
    perCustomerLimit: integer('per_customer_limit'),
    /** Customs data where this variant differs from its product's, else null. */
    hsCode: text('hs_code'),
    originCountry: text('origin_country'),
    customsDescription: text('customs_description'),
    netWeight: integer('net_weight'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('product_variants_sku_unique').on(table.sku),
    index('product_variants_product_idx').on(table.productId, table.position),
    // Running out (1 to 3 units, LOW_STOCK_UNITS): the dashboard's list and the products filter.
    index('product_variants_low_stock_idx').on(table.productId).where(sql`${table.quantity} between 1 and 3`),
    check('product_variants_quantity_not_negative', sql`${table.quantity} >= 0`),
    check(
      'product_variants_hs_code_digits',
      sql`${table.hsCode} is null or ${table.hsCode} ~ '^[0-9]{6,10}$'`,
    ),
    check('product_variants_price_positive', sql`${table.price} is null or ${table.price} > 0`),
    check(
      'product_variants_sale_below_price',
      sql`${table.sale} is null or (${table.price} is not null and ${table.sale} >= 0 and ${table.sale} < ${table.price})`,
    ),
    check('product_variants_weight_not_negative', sql`${table.weight} is null or ${table.weight} >= 0`),
    check(
      'product_variants_limit_positive',
      sql`${table.perCustomerLimit} is null or ${table.perCustomerLimit} >= 1`,
    ),
  ],
);

/** The option values that make a variant: one per option of its product. */
export const productVariantValues = pgTable(
  'product_variant_values',
  {
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    optionValueId: integer('option_value_id')
      .notNull()
      .references(() => productOptionValues.id),
  },
  (table) => [
    primaryKey({ columns: [table.variantId, table.optionValueId] }),
    index('product_variant_values_value_idx').on(table.optionValueId),
  ],
);

/**
 * A signed-in shopper asked to be told when a sold-out variant is back. The mail goes once:
 * `notified_at` is set in the transaction that queues it.
 */
export const stockAlerts = pgTable(
  'stock_alerts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.variantId] }),
    index('stock_alerts_waiting_idx').on(table.variantId).where(sql`${table.notifiedAt} is null`),
  ],
);

/** A signed-in shopper asked to be mailed when a scheduled product is released; mailed once. */
export const releaseReminders = pgTable(
  'release_reminders',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.productId] }),
    index('release_reminders_waiting_idx').on(table.productId).where(sql`${table.sentAt} is null`),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** File name under img/products/ of the uploads root. */
    file: text('file').notNull(),
    /** The colour (an option value of this product) the picture shows, or null for every colour. */
    optionValueId: integer('option_value_id').references(() => productOptionValues.id, {
      onDelete: 'set null',
    }),
    position: integer('position').notNull().default(0),
  },
  (table) => [index('product_images_product_idx').on(table.productId, table.position)],
);

// ── Promo codes ─────────────────────────────────────────────────────────────────────────────────

/**
 * A promo code: a percent or a fixed amount off the goods it applies to (its projects, categories
 * and products; all goods when none are named), within a window, a minimum order and use limits
 * (ADR 0058). Uses are the orders that name it and are not cancelled.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'amount'] }).notNull(),
    /** Percent (1–100) or kopecks, by `kind`. */
    value: integer('value').notNull(),
    /** Kopecks of goods the code applies to that an order needs, or 0. */
    minOrder: integer('min_order').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    totalLimit: integer('total_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    appliesToDrops: boolean('applies_to_drops').notNull().default(false),
    projectIds: jsonb('project_ids').$type<number[]>().notNull().default([]),
    categoryIds: jsonb('category_ids').$type<number[]>().notNull().default([]),
    productIds: jsonb('product_ids').$type<number[]>().notNull().default([]),
    /** Orders placed with the code and not cancelled; counted under the code's row lock. */
    uses: integer('uses').notNull().default(0),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (table) => [
    uniqueIndex('promo_codes_code_unique').on(sql`lower(${table.code})`),
    check('promo_codes_value_positive', sql`${table.value} > 0`),
    check('promo_codes_percent_range', sql`${table.kind} <> 'percent' or ${table.value} <= 100`),
    check(
      'promo_codes_uses_within_limit',
      sql`${table.totalLimit} is null or ${table.uses} <= ${table.totalLimit}`,
    ),
  ],
);

// ── Shopping ────────────────────────────────────────────────────────────────────────────────────

/** A basket belongs to a user, or to a guest's session until the guest signs in. */
export const baskets = pgTable(
  'baskets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    /** The promo code the shopper entered, checked again whenever the basket is priced. */
    promoCodeId: integer('promo_code_id').references(() => promoCodes.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('baskets_user_unique').on(table.userId),
    uniqueIndex('baskets_session_unique').on(table.sessionId),
    check('baskets_has_owner', sql`${table.userId} is not null or ${table.sessionId} is not null`),
  ],
);

export const basketItems = pgTable(
  'basket_items',
  {
    basketId: integer('basket_id')
      .notNull()
      .references(() => baskets.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    count: integer('count').notNull(),
    addedAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.basketId, table.variantId] }),
    check('basket_items_count_positive', sql`${table.count} >= 1`),
  ],
);

export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** When the user was told that this envisioned item is made; set once, so the mail goes once. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    addedAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.productId] }),
    index('wishlist_items_product_idx').on(table.productId),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    body: text('body').notNull(),
    hidden: boolean('hidden').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    index('reviews_product_idx').on(table.productId, table.createdAt),
    uniqueIndex('reviews_one_per_author').on(table.productId, table.userId),
    check('reviews_rating_range', sql`${table.rating} between 1 and 5`),
  ],
);

// ── Orders and payments ─────────────────────────────────────────────────────────────────────────

export const DELIVERY_METHODS = ['russian_post', 'boxberry', 'boxberry.courier'] as const;
export const PAYMENT_METHODS = ['robokassa', 'paypal'] as const;

/** Status codes of the spec: 0 current (awaiting payment), 1 in processing (paid), 2 cancelled,
 *  3 processed, 4 ready to ship, 5 shipped, 6 special. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    locale: text('locale').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    deliveryMethod: text('delivery_method', { enum: DELIVERY_METHODS }).notNull(),
    deliveryCountry: text('delivery_country').notNull(),
    deliveryCity: text('delivery_city').notNull(),
    deliveryAddress: text('delivery_address').notNull(),
    deliveryZip: text('delivery_zip').notNull(),
    /** The Boxberry pickup point the shopper chose (its `Code`); null for other methods and for
     *  pickup orders placed before the code was kept, whose parcel goes to the point nearest the postcode. */
    pickupPointCode: text('pickup_point_code'),
    comment: text('comment'),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull(),
    /** Kopecks, recomputed by the server at order time. */
    productsCost: integer('products_cost').notNull(),
    deliveryCost: integer('delivery_cost').notNull(),
    deliveryCostActual: integer('delivery_cost_actual'),
    /** Currency the shopper pays in and, for USD, the rate (roubles per dollar) frozen at order time. */
    currency: text('currency', { enum: ['RUB', 'USD'] })
      .notNull()
      .default('RUB'),
    usdRate: numeric('usd_rate', { precision: 12, scale: 4 }),
    /** The goods as charged, in minor units of `currency`: each unit converted once, times its
     *  count, less the discount (ADR 0050); with the delivery converted once, the provider's amount. */
    productsAmount: integer('products_amount').notNull(),
    status: smallint('status').notNull().default(0),
    trackCode: text('track_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the "shipped" mail was queued; it goes once, when the order is shipped and has a track code. */
    shippedMailAt: timestamp('shipped_mail_at', { withTimezone: true }),
    /** The key the checkout form carried: the same basket submitted again finds this order. */
    checkoutKey: text('checkout_key'),
    /** PayPal's Orders v2 id of the order created for this one at PayPal (ADR 0052). */
    paypalOrderId: text('paypal_order_id'),
    /** The promo code used, and its discount in kopecks, shared over the items (`order_items.discount`). */
    promoCodeId: integer('promo_code_id').references(() => promoCodes.id, { onDelete: 'set null' }),
    discount: integer('discount').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (table) => [
    index('orders_user_idx').on(table.userId, table.createdAt),
    // The orders list (newest first, any page) and the dashboard's days.
    index('orders_created_idx').on(table.createdAt, table.id),
    index('orders_status_expiry_idx').on(table.status, table.expiresAt),
    index('orders_email_idx').on(sql`lower(${table.email})`),
    uniqueIndex('orders_checkout_key_unique').on(table.userId, table.checkoutKey),
    uniqueIndex('orders_paypal_order_unique').on(table.paypalOrderId),
    index('orders_promo_code_idx').on(table.promoCodeId).where(sql`${table.promoCodeId} is not null`),
    check('orders_status_range', sql`${table.status} between 0 and 6`),
  ],
);

/** An option value as an order item keeps it: "Size: L" in both languages. */
export interface OrderItemOption {
  nameRu: string;
  nameEn: string;
  valueRu: string;
  valueEn: string;
}

/**
 * Items are copied at order time: names, SKU, option values and prices stay as they were when the
 * order was placed. The variant link is what units go back to; it is null once the variant is gone.
 */
export const orderItems = pgTable(
  'order_items',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    sku: text('sku').notNull(),
    options: jsonb('options').$type<OrderItemOption[]>().notNull().default([]),
    nameRu: text('name_ru').notNull(),
    nameEn: text('name_en').notNull(),
    price: integer('price').notNull(),
    sale: integer('sale'),
    count: integer('count').notNull(),
    /** Kopecks of the order's promo discount this line carries (the whole line, not per unit). */
    discount: integer('discount').notNull().default(0),
    /** VAT code of the line's 54-FZ receipt, frozen at order time (ADR 0051). */
    vatRate: text('vat_rate'),
  },
  (table) => [
    primaryKey({ columns: [table.orderId, table.sku] }),
    index('order_items_variant_idx').on(table.variantId),
    // Whether a product was ever ordered (deleting it), orders of a product, top products.
    index('order_items_product_idx').on(table.productId),
    // The orders search by a part of a product's name, in either language.
    index('order_items_names_idx').using(
      'gin',
      sql`(${table.nameRu} || ' ' || ${table.nameEn}) gin_trgm_ops`,
    ),
    check('order_items_count_positive', sql`${table.count} >= 1`),
  ],
);

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: smallint('status').notNull(),
    /** The admin who changed it; null when the shop itself did (payment, expiry, cancel). */
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (table) => [index('order_status_history_order_idx').on(table.orderId, table.createdAt)],
);

/**
 * Money moving for an order, in and out: every provider notification and status check (verified or
 * not) and every refund. Only accepted payments count for the order; a refused notification (bad
 * amount, receiver) is kept for the record but does not block the genuine one, and an accepted
 * replay is a no-op through the unique key.
 */
export const paymentTransactions = pgTable(
  'payment_transactions',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    provider: text('provider', { enum: PAYMENT_METHODS }).notNull(),
    kind: text('kind', { enum: ['payment', 'refund'] })
      .notNull()
      .default('payment'),
    externalId: text('external_id').notNull(),
    providerStatus: text('provider_status').notNull(),
    /** Minor units of `currency`; refunds are positive amounts too. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    verified: boolean('verified').notNull(),
    /** Whether this row counts for the order (a verified, matching payment, or a refund asked for). */
    accepted: boolean('accepted').notNull().default(true),
    /** Staff member who asked for a refund. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Items a refund put back in stock: [{ productId, variantId, count }]. */
    restock: jsonb('restock')
      .$type<{ productId: number; variantId: number; count: number }[]>()
      .notNull()
      .default([]),
    /**
     * Staff's words of why a refund that asks for the rest of the payment cancels the order: its
     * finish writes them into the status history and quotes them in the customer's refund mail.
     */
    cancelReason: text('cancel_reason'),
    raw: jsonb('raw').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('payment_transactions_replay_unique')
      .on(table.provider, table.kind, table.externalId, table.providerStatus)
      .where(sql`${table.accepted}`),
    index('payment_transactions_order_idx').on(table.orderId),
  ],
);

// ── Content ─────────────────────────────────────────────────────────────────────────────────────

export interface PartnerSocial {
  type: string;
  link: string;
}

export const partners = pgTable('partners', {
  id: serial('id').primaryKey(),
  nameRu: text('name_ru').notNull(),
  nameEn: text('name_en').notNull(),
  descriptionRu: text('description_ru').notNull().default(''),
  descriptionEn: text('description_en').notNull().default(''),
  image: text('image'),
  link: text('link'),
  email: text('email'),
  phoneNumber: text('phone_number'),
  phoneNumberMobile: text('phone_number_mobile'),
  telegram: text('telegram'),
  messenger: text('messenger'),
  socials: jsonb('socials').$type<PartnerSocial[]>().notNull().default([]),
  visible: boolean('visible').notNull().default(true),
  position: integer('position').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
});

export const feedback = pgTable('feedback', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  readAt: timestamp('read_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * The text of a static information page (shipping, payment, about, privacy policy) as staff wrote it
 * in the back office, sanitized; '' in a language means the shop shows its built-in text there.
 */
export const staticPages = pgTable('static_pages', {
  page: text('page').primaryKey(),
  htmlRu: text('html_ru').notNull().default(''),
  htmlEn: text('html_en').notNull().default(''),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
  version: version(),
});

/** Uploaded files of the file manager; stored under generated names below the uploads root. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    folder: text('folder').notNull().default(''),
    storedName: text('stored_name').notNull(),
    originalName: text('original_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('files_location_unique').on(table.folder, table.storedName)],
);

// ── Infrastructure ──────────────────────────────────────────────────────────────────────────────

/** Durable job queue (mail, order expiry, rate refresh, notifications); workers claim with SKIP LOCKED. */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** When set, a second job with the same key is not enqueued (exactly-once notifications). */
    uniqueKey: text('unique_key'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('jobs_unique_key').on(table.uniqueKey),
    index('jobs_ready_idx')
      .on(table.runAt)
      .where(sql`${table.finishedAt} is null and ${table.failedAt} is null`),
  ],
);

/** Every e-mail the shop sends, rendered; a job delivers it (file outbox or SMTP). */
export const mails = pgTable('mails', {
  id: serial('id').primaryKey(),
  /** The order a mail is about, for the order's timeline; null for other mails. */
  orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
  template: text('template').notNull(),
  locale: text('locale').notNull(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/** Roubles per one unit of `currency`, with where and when it was read. */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    id: serial('id').primaryKey(),
    currency: text('currency').notNull(),
    rate: numeric('rate', { precision: 12, scale: 4 }).notNull(),
    /** `cbr`, `moex` or `manual`. */
    source: text('source').notNull(),
    /** The day the rate is for (the Central Bank's `ValCurs/@Date`, MOEX's trade date, or the day a
     *  manager set it); a rate older than the configured number of days is not used (ADR 0053). */
    rateDate: date('rate_date', { mode: 'string' }).notNull().default(sql`current_date`),
    /** The manager who set a manual rate. */
    setBy: integer('set_by').references(() => users.id, { onDelete: 'set null' }),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('exchange_rates_latest_idx').on(table.currency, table.fetchedAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (table) => [
    index('audit_log_entity_idx').on(table.entity, table.entityId),
    index('audit_log_created_idx').on(table.createdAt),
  ],
);

/**
 * Staff notes, kept as a timeline: each note stays with its author and time. A note is about a
 * customer or about an order, never both.
 */
export const staffNotes = pgTable(
  'staff_notes',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id').references(() => users.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('staff_notes_customer_idx').on(table.customerId, table.createdAt),
    index('staff_notes_order_idx').on(table.orderId, table.createdAt),
    check('staff_notes_one_subject', sql`(${table.customerId} is null) <> (${table.orderId} is null)`),
  ],
);

// ── Fiscal receipts, stock movements, invitations, shipments ────────────────────────────────────

export interface ReceiptItem {
  name: string;
  quantity: number;
  /** Kopecks: the line's sum after discounts. */
  sum: number;
  tax: string;
  paymentMethod: string;
  paymentObject: string;
}

/**
 * 54-FZ receipts registered through the payment provider's cloud register (ADR 0051): the one sent
 * with the payment, refunds' receipts, and the second (`full_payment`) receipt of a prepaid order
 * once it ships. Items are kept as sent, so the back office shows exactly what was registered.
 */
export const fiscalReceipts = pgTable(
  'fiscal_receipts',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: PAYMENT_METHODS }).notNull(),
    purpose: text('purpose', { enum: ['payment', 'refund', 'settlement'] }).notNull(),
    /** The refund this receipt belongs to. */
    refundId: integer('refund_id').references(() => paymentTransactions.id, { onDelete: 'set null' }),
    sno: text('sno'),
    items: jsonb('items').$type<ReceiptItem[]>().notNull(),
    /** Kopecks: the sum of the items. */
    total: integer('total').notNull(),
    /** `pending` (to be sent), `sent` (accepted by the provider), `registered`, `failed`. */
    state: text('state').notNull().default('pending'),
    externalId: text('external_id'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('fiscal_receipts_order_idx').on(table.orderId, table.createdAt),
    uniqueIndex('fiscal_receipts_once_per_order')
      .on(table.orderId, table.purpose)
      .where(sql`${table.purpose} <> 'refund'`),
  ],
);

/** Why units changed (the contract's list, which the order timeline shows). */
export const STOCK_MOVEMENT_REASONS = STOCK_REASONS;

/**
 * Every change of a variant's units, written in the transaction that changes them (ADR 0056): the
 * movements of a variant add up to its stock.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason', { enum: STOCK_MOVEMENT_REASONS }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (table) => [
    index('stock_movements_variant_idx').on(table.variantId, table.createdAt),
    index('stock_movements_product_idx').on(table.productId, table.createdAt),
    index('stock_movements_order_idx').on(table.orderId).where(sql`${table.orderId} is not null`),
    check('stock_movements_delta_not_zero', sql`${table.delta} <> 0`),
  ],
);

/** An invitation to the back office: it grants nothing until its link is accepted (ADR 0056). */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    role: text('role', { enum: USER_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: integer('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('staff_invitations_token_unique').on(table.tokenHash),
    index('staff_invitations_email_idx').on(sql`lower(${table.email})`),
  ],
);

export const CARRIERS = ['russian_post', 'boxberry'] as const;

/**
 * A parcel handed to a carrier for (some of) an order's items (ADR 0057). `requestKey` makes the
 * carrier call idempotent: a repeated click finds the shipment instead of creating a second parcel.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    carrier: text('carrier', { enum: CARRIERS }).notNull(),
    requestKey: text('request_key').notNull(),
    /** `creating`, `created` (the carrier has it), `failed` (refused; may be retried), `cancelled`. */
    state: text('state').notNull().default('creating'),
    /** The carrier's own id of the parcel or order, its batch, and the track code (barcode). */
    externalId: text('external_id'),
    batch: text('batch'),
    trackCode: text('track_code'),
    weight: integer('weight').notNull(),
    /** Kopecks declared. */
    declaredValue: integer('declared_value').notNull(),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The last tracking event seen, when it happened, and whether it was the delivery. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    trackedAt: timestamp('tracked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('shipments_request_unique').on(table.requestKey),
    index('shipments_order_idx').on(table.orderId),
    index('shipments_tracking_idx')
      .on(table.trackedAt)
      .where(sql`${table.trackCode} is not null and ${table.deliveredAt} is null`),
  ],
);

/** The items a shipment carries, with the customs entry declared for them (CN23). */
export const shipmentItems = pgTable(
  'shipment_items',
  {
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').notNull(),
    sku: text('sku').notNull(),
    count: integer('count').notNull(),
    hsCode: text('hs_code'),
    originCountry: text('origin_country'),
    customsDescription: text('customs_description'),
    netWeight: integer('net_weight'),
  },
  (table) => [
    primaryKey({ columns: [table.shipmentId, table.sku] }),
    index('shipment_items_order_idx').on(table.orderId, table.sku),
    check('shipment_items_count_positive', sql`${table.count} >= 1`),
  ],
);

/** Tracking events of a shipment as the carrier reported them, each once. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: serial('id').primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The carrier's code of the operation (and attribute), and its text as the carrier gave it. */
    code: text('code').notNull(),
    description: text('description').notNull(),
    location: text('location'),
    /** What it means to the shop: `moving`, `waiting` (at a pickup point or post office), `delivered`,
     *  `returned`. */
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('shipment_events_once').on(table.shipmentId, table.occurredAt, table.code)],
);
