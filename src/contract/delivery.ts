import { isCountryCode } from './countries.ts';
import { LOCALES, type Locale } from './locale.ts';
import { z } from './zod.ts';

/**
 * Delivery methods and the `GET /api/delivery?method=&country=&zip=` call (spec sections 3, 4, 7, 8).
 * Messages in the schemas are keys of src/contract/error-messages.ts.
 */

export const DELIVERY_METHODS = ['russian_post', 'boxberry', 'boxberry.courier'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const isDeliveryMethod = (value: unknown): value is DeliveryMethod =>
  typeof value === 'string' && (DELIVERY_METHODS as readonly string[]).includes(value);

/** Russian Post ships worldwide; Boxberry's pickup points and couriers serve Russia only. */
export const deliveryCountries: Record<DeliveryMethod, 'any' | readonly string[]> = {
  russian_post: 'any',
  boxberry: ['RU'],
  'boxberry.courier': ['RU'],
};

export const isDeliveryAvailable = (method: DeliveryMethod, country: string): boolean => {
  const countries = deliveryCountries[method];
  return countries === 'any' || countries.includes(country.toUpperCase());
};

/**
 * The label a Boxberry pickup point's address starts with (spec section 4): the shipping step
 * writes it before the chosen point's address, and an order by Boxberry needs it.
 */
export const PICKUP_POINT_PREFIX: Record<Locale, string> = { ru: 'Пункт выдачи: ', en: 'Pickup point: ' };

/** True when the address already names a pickup point, in either language's words. */
export const hasPickupPointPrefix = (address: string): boolean =>
  Object.values(PICKUP_POINT_PREFIX).some((label) => address.trimStart().startsWith(label.trim()));

/**
 * A Boxberry pickup point's code as `ListPoints` writes it (`Code`, e.g. "66012"; the widget's `id`):
 * digits only, kept as text so leading zeros stay. An empty field is no point (a courier order, a
 * quote before a point is chosen); the carrier itself says whether a well-formed code is one of its
 * points when the delivery is quoted for it.
 */
export const pickupPointCode = z
  .string({ error: 'pickup-point-invalid' })
  .trim()
  .regex(/^(\d{1,10})?$/, 'pickup-point-invalid')
  .transform((value) => (value ? value : undefined))
  .optional()
  .describe('Code of the chosen Boxberry pickup point (digits, as Boxberry lists it); for method boxberry');

/**
 * Kinds of settlement Boxberry (after KLADR) writes beside a city's name: "Москва г", "г. Москва",
 * "Кольцово рп", "Октябрьский пгт". Only whole words in lower case, so a name is never cut.
 */
const SETTLEMENT_KINDS = [
  'г',
  'гор',
  'пгт',
  'рп',
  'кп',
  'дп',
  'п',
  'пос',
  'с',
  'д',
  'дер',
  'ст',
  'ст-ца',
  'х',
  'аул',
  'нп',
  'мкр',
  'сл',
  'снт',
] as const;
const KIND = `(?:${SETTLEMENT_KINDS.join('|')})`;
const KIND_BEFORE = new RegExp(`^${KIND}(?:\\.\\s*|\\s+)`, 'u');
const KIND_AFTER = new RegExp(`\\s+${KIND}\\.?$`, 'u');

/** "Москва г", "г. Москва", " Кольцово рп " → "Москва", "Москва", "Кольцово": the city as people write it. */
export function cityWithoutKind(city: string): string {
  const trimmed = city.trim().replace(/\s+/gu, ' ');
  const bare = trimmed.replace(KIND_AFTER, '').replace(KIND_BEFORE, '').trim();
  return bare === '' ? trimmed : bare;
}

export interface DeliveryMethodOption {
  method: DeliveryMethod;
  /** A translation key of the web app's message files. */
  name: string;
  /** A path under /public. */
  image: string;
}

/** The spec's three delivery methods, in the order the shipping step lists them. */
export const deliveryMethods: readonly DeliveryMethodOption[] = [
  { method: 'russian_post', name: 'delivery-russian-post', image: '/delivery/russian-post.svg' },
  { method: 'boxberry', name: 'delivery-boxberry', image: '/delivery/boxberry.svg' },
  { method: 'boxberry.courier', name: 'delivery-boxberry-courier', image: '/delivery/boxberry-courier.svg' },
];

/**
 * The carrier's page that tracks a parcel by its track code: the one rule the shipped mail and the
 * shopper's order history link with. Boxberry's courier parcels are tracked on Boxberry's page too.
 */
export function trackingUrl(method: DeliveryMethod, trackCode: string): string {
  const code = encodeURIComponent(trackCode.trim());
  return method === 'russian_post'
    ? `https://www.pochta.ru/tracking?barcode=${code}`
    : `https://boxberry.ru/tracking-page?id=${code}`;
}

/** Longest postcode we accept anywhere in the world (with spaces and a dash, e.g. "SW1A 1AA"). */
export const ZIP_MAX_LENGTH = 12;

const requiredOr = (required: string, invalid: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === '' ? required : invalid;

export const deliveryQuery = z.object({
  method: z.enum(DELIVERY_METHODS, { error: 'delivery-method-unknown' }),
  country: z
    .string({ error: requiredOr('country-required', 'country-invalid') })
    .trim()
    .min(1, 'country-required')
    .transform((value) => value.toUpperCase())
    .refine(isCountryCode, 'country-invalid')
    .describe('ISO 3166-1 alpha-2 code; lowercase is accepted'),
  zip: z
    .string({ error: requiredOr('zip-required', 'zip-invalid') })
    .trim()
    .min(1, 'zip-required')
    .max(ZIP_MAX_LENGTH, 'zip-invalid')
    .describe('Postcode; six digits in Russia'),
  pickupPointCode,
  locale: z.enum(LOCALES).optional().describe('Language of error texts'),
});

export type DeliveryQuery = z.infer<typeof deliveryQuery>;

export const deliveryDays = z
  .object({ min: z.number().int(), max: z.number().int() })
  .describe('Delivery time in days, when the carrier tells it');

export const deliveryResponse = z.object({
  success: z.literal(true),
  method: z.enum(DELIVERY_METHODS),
  cost: z.number().describe('Roubles'),
  days: deliveryDays.nullable(),
});

export type DeliveryResponse = z.infer<typeof deliveryResponse>;
export type DeliveryDays = z.infer<typeof deliveryDays>;
