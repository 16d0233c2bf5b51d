import { LOCALES } from './locale.ts';
import { DATABASE_INT_MAX } from './numbers.ts';
import { SORTS } from './shop.ts';
import { z } from './zod.ts';

/** Wire shapes of the catalogue calls (spec section 7). Prices are roubles; images are file names
 *  under /img/products/. Status is the spec's bit mask: 1 = visible, 2 = week sale. */

export const STATUS_VISIBLE = 1;
export const STATUS_WEEK_SALE = 2;

export const localeQuery = z.object({
  locale: z.enum(LOCALES).optional().describe('Interface language; defaults to the negotiated one'),
});

const link = z
  .string()
  .trim()
  .min(1, 'link is required')
  .max(200, 'link is too long')
  .describe('URL slug of the project, category or product');

/** Cards on one page of a shop list. */
export const PAGE_SIZE = 48;

/** One value or the same parameter repeated (`?project=2&project=5`), as a list. */
const oneOrMore = <Item extends z.ZodType>(item: Item, description: string) =>
  z
    .union([item, z.array(item).max(50, 'too many values')])
    .transform((value) => (Array.isArray(value) ? value : [value]) as Array<z.output<Item>>)
    .optional()
    .describe(description);

const sectionId = z.coerce.number().int().min(0).max(DATABASE_INT_MAX);

/** A bound of the price range: the currency's major units (roubles or dollars), two decimals at most. */
const priceBound = (description: string) =>
  z.coerce
    .number({ error: 'price must be a number' })
    .min(0, 'price must be 0 or more')
    .max(100_000_000, 'price is too large')
    .optional()
    .describe(description);

/**
 * Optional on the list calls: without `page` the answer holds the whole list (spec section 7);
 * with it, one page of PAGE_SIZE cards and `paging`. Sort and filters apply either way. Values of
 * one filter are alternatives; the filters apply together (ADR 0062).
 */
const listViewQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().describe('1-based page of PAGE_SIZE cards'),
  sort: z
    .enum(SORTS)
    .optional()
    .describe(
      "asc or desc by the price paid; `available` (the spec's) is the default order with `available=1`",
    ),
  project: oneOrMore(sectionId, 'Keep only these projects (repeat the parameter for several); 0 for all'),
  category: oneOrMore(sectionId, 'Keep only these categories (repeat for several); 0 for all'),
  size: oneOrMore(
    z.string().trim().max(40, 'size is too long'),
    'Keep only products with one of these sizes in stock (English or Russian name; repeat for several)',
  ),
  available: z
    .enum(['1', '0', 'true', 'false'])
    .optional()
    .describe('1: only products that can be ordered now, with units in stock; combines with any sort'),
  price_min: priceBound('Lowest price, in `currency`: products with a variant selling for this or more'),
  price_max: priceBound('Highest price, in `currency`: products with a variant selling for this or less'),
  currency: z
    .enum(['RUB', 'USD'])
    .optional()
    .describe('Currency of price_min and price_max (default RUB); dollars as shown at the current rate'),
});

export const linkQuery = localeQuery.extend({ link });
const withOrderedPrices = <Query extends { price_min?: number | undefined; price_max?: number | undefined }>(
  query: z.ZodType<Query>,
) =>
  query.refine(
    (value) =>
      value.price_min === undefined || value.price_max === undefined || value.price_min <= value.price_max,
    { message: 'price_min must not be above price_max', path: ['price_min'] },
  );

export const listQuery = withOrderedPrices(linkQuery.extend(listViewQuery.shape));
export const searchQuery = withOrderedPrices(
  localeQuery.extend({
    search: z.string().trim().min(1, 'search text is required').max(200, 'search text is too long'),
    ...listViewQuery.shape,
  }),
);

export const suggestionsQuery = localeQuery.extend({
  search: z.string().min(2, 'type two letters or more').max(100, 'search text is too long'),
});

export const projectSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  link: z.string(),
  image: z.string().nullable(),
  status: z.number().int(),
});

export const categorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  link: z.string(),
  status: z.number().int(),
});

export const productCardSchema = z.object({
  id: z.number().int(),
  link: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  price: z.number().describe('Roubles'),
  sale: z.number().nullable().describe('Sale price in roubles, null when not on sale'),
  inStock: z.number().int().describe('Units that can be ordered now; 0 when out of stock or envisioned'),
  envisioned: z.boolean().describe('Only envisioned: can be wishlisted, not bought'),
  project_id: z.number().int(),
  categories: z.array(z.number().int()),
  status: z.number().int(),
  fromPrice: z
    .number()
    .nullable()
    .describe("Roubles: the lowest price a variant sells for, when the variants' prices differ; else null"),
  sizes: z.array(z.string()).describe("Sizes in stock, in the picker's order; empty without a size option"),
  hasOptions: z.boolean().describe('Has options (size, colour): a variant must be chosen to buy it'),
  rating: z
    .object({ average: z.number().nullable(), count: z.number().int() })
    .describe('Visible reviews: their average to one decimal (null without any) and count'),
  releaseAt: z
    .string()
    .nullable()
    .describe('ISO 8601: when an announced product goes on sale; null once released'),
});

/** How the product page shows an option: sizes as buttons, colours as swatches. */
export const OPTION_KINDS = ['size', 'colour', 'other'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

export const optionValueSchema = z.object({
  id: z.number().int(),
  value: z.string().describe('In the locale'),
  key: z.string().describe('Its English name: the value in a page address (`?size=L`)'),
  swatch: z.string().nullable().describe('`#rrggbb` of a colour, or null'),
});

export const productOptionSchema = z.object({
  id: z.number().int(),
  kind: z.enum(OPTION_KINDS),
  name: z.string(),
  values: z.array(optionValueSchema).describe("In the picker's order"),
});

export const productVariantSchema = z.object({
  id: z.number().int(),
  sku: z.string(),
  values: z.array(z.number().int()).describe("Its option value ids, one per option, in the options' order"),
  price: z.number().describe('Roubles'),
  sale: z.number().nullable(),
  inStock: z.number().int().describe('Units that can be ordered now'),
  perCustomerLimit: z
    .number()
    .int()
    .nullable()
    .describe('Units of this variant one customer may buy (basket and orders together), or null'),
});

export const productDetailSchema = productCardSchema.extend({
  desc: z.string().describe('Sanitized HTML description'),
  images: z.array(z.string()),
  pictures: z
    .array(z.object({ file: z.string(), optionValue: z.number().int().nullable() }))
    .describe('The images with the colour (option value) each shows, or null'),
  options: z.array(productOptionSchema).describe('Empty for a product without options'),
  variants: z
    .array(productVariantSchema)
    .describe('What can be bought; a product without options has one, with no values'),
  sizeGuide: z
    .string()
    .nullable()
    .describe('Sanitized HTML table of the first of its categories that has one'),
  weight: z.number().int().describe('Grams'),
  project: projectSchema.pick({ id: true, name: true, link: true }),
  categoryList: z.array(categorySchema.pick({ id: true, name: true, link: true })),
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }).describe('Visible reviews'),
  releaseAt: z
    .string()
    .nullable()
    .describe(
      'ISO 8601: when it goes on sale. Until then it is announced only (not orderable, in no list); null when never scheduled',
    ),
  perCustomerLimit: z
    .number()
    .int()
    .nullable()
    .describe(
      "Units one customer may buy (basket and orders together): its own or its drop's limit; null for none",
    ),
});

export const countsSchema = z.object({
  projects: z.record(z.string(), z.number().int()),
  categories: z.record(z.string(), z.number().int()),
  sizes: z.record(z.string(), z.number().int()).describe('Per size key'),
  available: z.number().int().describe('Products that can be ordered now, with the other filters kept'),
});

export const sizeSectionSchema = z.object({
  key: z.string().describe('The size as the `size` filter takes it (its English name)'),
  name: z.string(),
});

export const initialResponse = z.object({
  success: z.literal(true),
  currencyUsd: z.number().describe('Roubles per US dollar; 0 when no rate is known'),
  categories: z.array(categorySchema),
  projects: z.array(projectSchema),
  week: z.array(productCardSchema),
});

export const pagingSchema = z.object({
  page: z.number().int(),
  pages: z.number().int().describe('Last page; 1 for an empty list'),
  perPage: z.number().int(),
  total: z.number().int().describe('Products of the sorted and filtered list, on all pages'),
});

export const productListResponse = z.object({
  success: z.literal(true),
  title: z.string().describe('Name of the project or category, or the search text'),
  products: z.array(productCardSchema),
  counts: countsSchema.describe(
    'Products per project, category and size: what choosing it would show with the other filters kept',
  ),
  paging: pagingSchema.optional().describe('Only when a page was asked for'),
  projects: z.array(projectSchema).describe('Projects that have products in this list'),
  categories: z.array(categorySchema).describe('Categories that have products in this list'),
  sizes: z.array(sizeSectionSchema).describe('Sizes in stock in this list, for the size filter'),
  priceRange: z
    .object({ min: z.number(), max: z.number() })
    .nullable()
    .describe(
      'Roubles: the lowest and highest price paid (sale or price, as the sort orders) under the other filters; null when none',
    ),
});

export const productResponse = z.object({
  success: z.literal(true),
  product: productDetailSchema,
  similar: z.array(productCardSchema),
});

export const searchSuggestionsResponse = z.object({
  success: z.literal(true),
  text: z.string().describe('The text as searched: normalised, in the keyboard layout that made sense'),
  products: z
    .array(
      productCardSchema
        .pick({ link: true, name: true, image: true, price: true, sale: true })
        .describe('A product: picture, name, price'),
    )
    .describe('Up to 6 best matches, the last word read as unfinished'),
  sections: z
    .array(z.object({ kind: z.enum(['project', 'category']), link: z.string(), name: z.string() }))
    .describe('Projects (games) and categories whose names match'),
});

export const errorResponse = z.object({
  success: z.literal(false),
  errors: z.record(z.string(), z.array(z.string())),
  message: z.string(),
  intlError: z.string().optional(),
});

export type Project = z.infer<typeof projectSchema>;
export type Category = z.infer<typeof categorySchema>;
export type ProductCard = z.infer<typeof productCardSchema>;
export type ProductDetail = z.infer<typeof productDetailSchema>;
export type ProductOption = z.infer<typeof productOptionSchema>;
export type ProductVariant = z.infer<typeof productVariantSchema>;
export type SizeSection = z.infer<typeof sizeSectionSchema>;
export type SearchSuggestions = Omit<z.infer<typeof searchSuggestionsResponse>, 'success'>;
export type Counts = z.infer<typeof countsSchema>;
export type Paging = z.infer<typeof pagingSchema>;
export type InitialResponse = z.infer<typeof initialResponse>;
export type ProductListResponse = z.infer<typeof productListResponse>;
export type ProductResponse = z.infer<typeof productResponse>;
