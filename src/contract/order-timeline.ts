import { z } from './zod.ts';

/**
 * The order timeline (issue 30 point 7, issue 31 point 3; ADR 0067): everything that happened to
 * an order in one chronological feed, oldest first. Every event has its time (`at`, ISO 8601) and
 * who did it (`by`, the staff member's e-mail; null when the shop, a provider, a carrier or the
 * shopper did). Amounts are in the units of `currency` ("12.50"), as the payments list shows them.
 */

const at = z.string().describe('When it happened, ISO 8601');
const by = z.string().nullable().describe('The staff member who did it (e-mail); null when the shop did');

/** Why a variant's units changed (ADR 0056); the stock ledger's `reason`. */
export const STOCK_REASONS = [
  'initial',
  'sale',
  'cancellation',
  'refund',
  'receipt',
  'write-off',
  'correction',
  'import',
] as const;

export const TRACKING_KINDS = ['moving', 'waiting', 'delivered', 'returned'] as const;

export const orderTimelineEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('status'),
    at,
    by,
    status: z.number().int().min(0).max(6).describe("The spec's status code the order moved to"),
    reason: z.string().nullable().describe('Why, as contract/status-reasons.ts codes it'),
  }),
  z.object({ kind: z.literal('note'), at, by, body: z.string() }),
  z.object({
    kind: z.literal('payment'),
    at,
    by,
    provider: z.string(),
    amount: z.string(),
    currency: z.string(),
    state: z.string().describe("The provider's status of the payment"),
    accepted: z.boolean().describe('Whether it counts for the order (a refused notification does not)'),
  }),
  z.object({
    kind: z.literal('refund'),
    at,
    by,
    provider: z.string(),
    amount: z.string(),
    currency: z.string(),
    state: z.string().describe("The provider's status of the refund"),
  }),
  z.object({
    kind: z.literal('mail'),
    at,
    by,
    template: z.string(),
    to: z.string(),
    subject: z.string().describe('As sent, in the language of whoever it went to'),
    sent_at: z.string().nullable().describe('When it left; null while it waits in the outbox'),
  }),
  z.object({
    kind: z.literal('stock'),
    at,
    by,
    sku: z.string(),
    delta: z.number().int().describe('Units in (+) or out (−) of stock'),
    reason: z.enum(STOCK_REASONS),
  }),
  z.object({
    kind: z.literal('shipment'),
    at,
    by,
    shipment: z.number().int(),
    carrier: z.string(),
    state: z.string().describe('creating, created or failed (the carrier was down; it may be retried)'),
    track_code: z.string().nullable(),
    items: z.array(z.object({ sku: z.string(), count: z.number().int() })),
  }),
  z.object({
    kind: z.literal('tracking'),
    at,
    by,
    shipment: z.number().int(),
    carrier: z.string(),
    track_code: z.string().nullable(),
    event: z
      .enum(TRACKING_KINDS)
      .describe('What it means: moving, waiting at a pickup point, delivered, returned'),
    description: z.string().describe("The carrier's own text"),
    location: z.string().nullable(),
  }),
]);

export type OrderTimelineEvent = z.infer<typeof orderTimelineEvent>;
export type OrderTimelineKind = OrderTimelineEvent['kind'];

export const orderTimelineResponse = z.object({
  success: z.literal(true),
  timeline: z.array(orderTimelineEvent).describe('Oldest first'),
});
