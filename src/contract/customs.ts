import { isCountryCode } from './countries.ts';
import { wireNumber } from './numbers.ts';
import { z } from './zod.ts';

/**
 * Customs data of parcels sent abroad (CN23, Russian Post's electronic declaration; ADR 0057): per
 * product, with a per-variant override of each field where the variant differs. Every field is
 * optional on the wire: empty clears it, absent leaves it as it is.
 */

/** The Eurasian Economic Union: parcels to these countries need no customs declaration. */
export const EAEU_COUNTRIES: readonly string[] = ['RU', 'BY', 'KZ', 'AM', 'KG'];

/** An order to this country (ISO alpha-2) leaves the EAEU and needs the CN23 entries. */
export const needsCustoms = (country: string): boolean =>
  !EAEU_COUNTRIES.includes(country.trim().toUpperCase());

export const isHsCode = (value: string): boolean => /^\d{6,10}$/.test(value);
/** Customs descriptions are English: printable ASCII with at least one letter. */
export const isEnglishDescription = (value: string): boolean =>
  /^[\x20-\x7e]+$/.test(value) && /[A-Za-z]/.test(value);

const cleared = (value: unknown) => (value === '' || value === null ? null : value);

const hsCode = z.preprocess(
  (value) => (typeof value === 'string' ? cleared(value.replace(/[\s.]/g, '')) : cleared(value)),
  z.string().refine(isHsCode, 'hs-code-invalid').nullable().optional(),
);
const originCountry = z.preprocess(
  (value) => (typeof value === 'string' ? cleared(value.trim().toUpperCase()) : cleared(value)),
  z.string().refine(isCountryCode, 'country-invalid').nullable().optional(),
);
const customsDescription = z.preprocess(
  (value) => (typeof value === 'string' ? cleared(value.trim()) : cleared(value)),
  z
    .string()
    .max(200, 'field-too-long')
    .refine(isEnglishDescription, 'customs-description-invalid')
    .nullable()
    .optional(),
);
const wholeNumber = (max: number) =>
  z.preprocess(
    cleared,
    wireNumber(
      z.coerce
        .number({ error: 'number-invalid' })
        .int('number-invalid')
        .min(1, 'number-invalid')
        .max(max, 'number-invalid'),
    )
      .nullable()
      .optional(),
  );

/** The fields a product and a variant share; a variant's null means "as the product". */
export const customsFields = {
  hs_code: hsCode,
  origin_country: originCountry,
  customs_description: customsDescription,
  net_weight: wholeNumber(100_000),
};

/** A product's box in centimetres; null for the shop's default parcel size. */
export const boxFields = {
  box_length: wholeNumber(300),
  box_width: wholeNumber(300),
  box_height: wholeNumber(300),
};

export interface CustomsData {
  hsCode: string | null;
  originCountry: string | null;
  customsDescription: string | null;
  netWeight: number | null;
}

/** The CN23 fields an item lacks (wire names), after the variant's overrides. */
export function missingCustoms(data: CustomsData): Array<keyof typeof customsFields> {
  const missing: Array<keyof typeof customsFields> = [];
  if (!data.hsCode) missing.push('hs_code');
  if (!data.originCountry) missing.push('origin_country');
  if (!data.customsDescription) missing.push('customs_description');
  if (!data.netWeight) missing.push('net_weight');
  return missing;
}

/** A shipment to create: the order's items to put in the parcel; none means all not yet shipped. */
export const shipmentInput = z.object({
  items: z
    .array(
      z.object({
        sku: z.string().trim().min(1, 'field-required').max(80, 'field-too-long'),
        count: wireNumber(
          z.coerce
            .number({ error: 'number-invalid' })
            .int('number-invalid')
            .min(1, 'number-invalid')
            .max(10_000, 'number-invalid'),
        ),
      }),
    )
    .max(300, 'field-too-long')
    .default([]),
});
export type ShipmentInput = z.infer<typeof shipmentInput>;

/** Orders shipped at once from the orders list (issue 31 point 2): at most this many per request. */
export const MAX_BULK_SHIPMENTS = 50;

/** Paid orders to ship whole, each with its own carrier; one order's refusal does not stop the others. */
export const shipmentBulkInput = z.object({
  orders: z
    .array(
      wireNumber(
        z.coerce
          .number({ error: 'number-invalid' })
          .int('number-invalid')
          .positive('number-invalid')
          .max(2_147_483_647, 'number-invalid'),
      ),
    )
    .min(1, 'shipment-bulk-none')
    .max(MAX_BULK_SHIPMENTS, 'shipment-bulk-too-many'),
});
export type ShipmentBulkInput = z.infer<typeof shipmentBulkInput>;

export const shipmentBulkResponse = z.object({
  success: z.literal(true),
  results: z.array(
    z.object({
      order: z.number().int(),
      outcome: z
        .enum(['created', 'existing', 'refused'])
        .describe(
          'created now; existing: the order’s parcels were made before (a repeated request); refused',
        ),
      track_codes: z.array(z.string()).describe('The order’s parcels’ track codes (created or existing)'),
      message: z.string().nullable().describe('Why it was refused, in the manager’s language'),
      errors: z
        .record(z.string(), z.array(z.string()))
        .describe('The refusal’s texts, the carrier’s own among them'),
    }),
  ),
});

export const shipmentDocumentParams = z.object({
  id: wireNumber(
    z.coerce
      .number({ error: 'not-found' })
      .int('not-found')
      .positive('not-found')
      .max(2_147_483_647, 'not-found'),
  ),
  shipment: wireNumber(
    z.coerce
      .number({ error: 'not-found' })
      .int('not-found')
      .positive('not-found')
      .max(2_147_483_647, 'not-found'),
  ),
  form: z.enum(['label', 'cn23'], { error: 'not-found' }),
});
export type ShipmentBulkResult = z.infer<typeof shipmentBulkResponse>['results'][number];
