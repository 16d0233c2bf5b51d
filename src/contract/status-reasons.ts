/**
 * Why an order's status moved, as `order_status_history.reason` keeps it: a code, with the payment
 * provider after a colon where one took part (`paid:robokassa`). The back office shows it in the
 * staff member's language. Rows written before the codes hold English sentences
 * (`paid via robokassa`); `statusReasonOf` reads those too.
 */
export const STATUS_REASONS = [
  'placed',
  'replaced',
  'paid',
  'paid-late-restocked',
  'paid-late-out-of-stock',
  'refunded',
  'cancelled',
  'cancelled-by-staff',
  'expired',
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

/** The stored form of a reason. */
export const statusReason = (reason: StatusReason, provider?: string): string =>
  provider ? `${reason}:${provider}` : reason;

/** Staff cancelled the order and said why: the words are kept after the code (`cancelled-by-staff:…`). */
export const staffCancelReason = (words: string): string => `cancelled-by-staff:${words}`;

/** A full refund cancelled the order and staff said why: the words follow the provider (`refunded:paypal:…`). */
export const refundCancelReason = (provider: string, words: string): string =>
  `${statusReason('refunded', provider)}:${words}`;

const isStatusReason = (value: string): value is StatusReason =>
  (STATUS_REASONS as readonly string[]).includes(value);

/** The English sentences rows held before the codes, with the provider they name. */
const SENTENCES: ReadonlyArray<[RegExp, StatusReason]> = [
  [/^replaced by a new order$/, 'replaced'],
  [/^paid via (\w+)$/, 'paid'],
  [/^paid after cancel via (\w+), stock taken back$/, 'paid-late-restocked'],
  [/^paid after cancel via (\w+), out of stock: refund needed$/, 'paid-late-out-of-stock'],
  [/^refunded via (\w+)$/, 'refunded'],
];

/**
 * A stored reason read back (`note`: the staff's own words of a cancellation, by a status edit or a
 * full refund), or null for a text that is none of them (shown as it is).
 */
export function statusReasonOf(
  stored: string,
): { reason: StatusReason; provider: string | null; note?: string } | null {
  const colon = stored.indexOf(':');
  const code = colon === -1 ? stored : stored.slice(0, colon);
  const rest = colon === -1 ? '' : stored.slice(colon + 1);
  if (code === 'cancelled-by-staff') return { reason: code, provider: null, note: rest };
  if (isStatusReason(code)) {
    const words = rest.indexOf(':');
    if (words === -1) return { reason: code, provider: rest || null };
    return { reason: code, provider: rest.slice(0, words) || null, note: rest.slice(words + 1) };
  }
  for (const [sentence, reason] of SENTENCES) {
    const match = sentence.exec(stored);
    if (match) return { reason, provider: match[1] ?? null };
  }
  return null;
}
