import type { AdminMessageKey } from '../i18n/admin-messages.ts';

/**
 * The audit log's before and after, readable by staff: each field a record's view carries (the
 * back office's own wire names, `name_ru`, `track_code`…) by the label its form shows, and values
 * as words rather than JSON. A field not named here is shown by its name with spaces.
 */
export const AUDIT_FIELD_LABELS: Record<string, AdminMessageKey> = {
  name_ru: 'admin-name-ru',
  name_en: 'admin-name-en',
  name: 'admin-name',
  link: 'admin-link',
  image: 'admin-image',
  images: 'admin-images',
  visible: 'admin-visible',
  position: 'admin-position',
  size_guide_ru: 'admin-size-guide-ru',
  size_guide_en: 'admin-size-guide-en',
  desc_ru: 'admin-description-ru',
  desc_en: 'admin-description-en',
  description_ru: 'admin-description-ru',
  description_en: 'admin-description-en',
  project: 'admin-project',
  categories: 'admin-categories',
  price: 'admin-price',
  sale: 'admin-sale-roubles',
  weight: 'admin-weight',
  currentQuantity: 'admin-audit-stock',
  quantity: 'admin-audit-stock',
  weekSale: 'admin-week-sale',
  envisioned: 'admin-envisioned',
  release_at: 'admin-audit-release-at',
  per_customer_limit: 'admin-per-customer-limit',
  hs_code: 'admin-hs-code',
  origin_country: 'admin-origin-country',
  customs_description: 'admin-customs-description',
  net_weight: 'admin-net-weight',
  box_length: 'admin-box-size',
  box_width: 'admin-box-size',
  box_height: 'admin-box-size',
  status: 'admin-status',
  track_code: 'admin-track-code',
  cancelReason: 'admin-refund-cancel-reason',
  delivery_cost_actual: 'admin-delivery-cost-actual',
  role: 'admin-role',
  email: 'email',
  blocked: 'admin-customer-blocked',
  rate: 'admin-rate',
  drop: 'admin-audit-drop',
  variants: 'admin-audit-variants',
  options: 'admin-audit-options',
};

/** Fields that change with every save and say nothing to a person. */
export const AUDIT_HIDDEN_FIELDS = new Set(['id', 'version', 'updatedAt', 'updated_at']);

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const LONG_TEXT = 160;

export interface AuditValueWords {
  yes: string;
  no: string;
  dateTime: (iso: string) => string;
}

/** A field's value in words: yes/no, dates in the staff member's format, names of nested records, HTML as its text. */
export function auditValueText(value: unknown, words: AuditValueWords): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (ISO_MOMENT.test(value) && !Number.isNaN(Date.parse(value))) return words.dateTime(value);
    const text = value.includes('<')
      ? value
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
      : value;
    return text.length > LONG_TEXT ? `${text.slice(0, LONG_TEXT)}…` : text;
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? '—' : value.map((item) => auditValueText(item, words)).join('; ');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const named = record.name_ru ?? record.name ?? record.sku ?? record.value_ru;
    if (typeof named === 'string' && named !== '') return named;
    return Object.entries(record)
      .filter(([key]) => !AUDIT_HIDDEN_FIELDS.has(key))
      .map(([key, item]) => `${key.replace(/_/g, ' ')}: ${auditValueText(item, words)}`)
      .join(', ');
  }
  return String(value);
}

/** The fields to show for an entry: those that changed, or every field of a created or deleted record. */
export function auditFields(before: unknown, after: unknown): string[] {
  const asRecord = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  const old = asRecord(before);
  const now = asRecord(after);
  const keys = [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])].filter(
    (key) => !AUDIT_HIDDEN_FIELDS.has(key),
  );
  if (!old || !now) return keys;
  return keys.filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]));
}
