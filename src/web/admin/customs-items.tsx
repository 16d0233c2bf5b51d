import { type Currency, formatMoney, majorToMinor } from '../../contract/money.ts';
import { useAdminShop } from './text.ts';
import type { AdminOrder } from './types.ts';
import { useAdminFormat } from './ui.tsx';

type CustomsEntry = NonNullable<AdminOrder['customs']>[number];

/** The label of each customs field, for the table's heads and "missing: …". */
export const CUSTOMS_FIELD_LABELS = {
  hs_code: 'admin-hs-code',
  origin_country: 'admin-origin-country',
  customs_description: 'admin-customs-description',
  net_weight: 'admin-net-weight',
} as const;

/**
 * The CN23 items of an order abroad (ADR 0057): description, quantity, HS code, value in the
 * order's currency and in roubles, net weight and origin; a missing field says so. Seven columns
 * scroll in their own box on a phone, on the order page and on the packing slip alike.
 */
export function CustomsItems({ items, currency }: { items: readonly CustomsEntry[]; currency: Currency }) {
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const missing = <span className="admin-danger">—</span>;
  return (
    // Focusable, so a keyboard can scroll the table sideways on a phone.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1)
    <div className="admin-table-scroll" tabIndex={0}>
      <table className="admin-table customs-items">
        <caption>{t('admin-customs')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin-customs-description')}</th>
            <th scope="col">{t('admin-count')}</th>
            <th scope="col">{t('admin-hs-code')}</th>
            <th scope="col">{t('admin-customs-value')}</th>
            <th scope="col">{t('admin-customs-value-roubles')}</th>
            <th scope="col">{t('admin-net-weight')}</th>
            <th scope="col">{t('admin-origin-country')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.sku}>
              <td>
                {item.customs_description ?? missing}
                <div className="admin-muted">
                  {item.name} · {item.sku}
                </div>
              </td>
              <td>{item.count}</td>
              <td>{item.hs_code ?? missing}</td>
              <td>{formatMoney(majorToMinor(item.value), currency, locale, { kopecks: true })}</td>
              <td>{format.money(item.value_roubles)}</td>
              <td>{item.net_weight === null ? missing : item.net_weight * item.count}</td>
              <td>{item.origin_country ?? missing}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
