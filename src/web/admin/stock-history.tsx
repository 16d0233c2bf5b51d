import { Form, Link } from 'react-router';
import type { AdminMessageKey } from '../i18n/admin-messages.ts';
import { useAdminShop } from './text.ts';
import type { AdminProductVariants, StockMovement } from './types.ts';
import { useAdminFormat } from './ui.tsx';

/** Why units moved, in the staff member's language (also on the order timeline). */
export const STOCK_REASON_TEXTS: Record<StockMovement['reason'], AdminMessageKey> = {
  initial: 'admin-stock-reason-initial',
  sale: 'admin-stock-reason-sale',
  cancellation: 'admin-stock-reason-cancellation',
  refund: 'admin-stock-reason-refund',
  receipt: 'admin-stock-reason-receipt',
  'write-off': 'admin-stock-reason-write-off',
  correction: 'admin-stock-reason-correction',
  import: 'admin-stock-reason-import',
};

/**
 * A product's stock ledger (ADR 0056): every change of its variants' units, newest first, with
 * why, who or which order, and the variant's stock after it; a GET form narrows it to one variant.
 */
export function StockHistory({
  movements,
  variants,
  variant,
}: {
  movements: StockMovement[];
  variants: AdminProductVariants['variants'];
  /** The variant shown, or all. */
  variant: number | undefined;
}) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  return (
    <section className="admin-card" aria-labelledby="stock-history-heading">
      <h2 id="stock-history-heading">{t('admin-stock-history')}</h2>
      {variants.length > 1 ? (
        <Form method="get" className="admin-filters" preventScrollReset>
          <div className="form-field">
            <label htmlFor="stock-history-variant">{t('admin-variant')}</label>
            <select id="stock-history-variant" name="variant" defaultValue={variant ?? ''}>
              <option value="">{t('admin-stock-history-all')}</option>
              {variants.map((row) => (
                <option key={row.id} value={row.id}>
                  {row.sku}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button">
            {t('admin-filter')}
          </button>
        </Form>
      ) : null}
      {movements.length === 0 ? (
        <p>{t('admin-stock-history-empty')}</p>
      ) : (
        // Focusable, so a keyboard can scroll the table sideways on a phone.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1)
        <div className="admin-table-scroll" tabIndex={0}>
          <table className="admin-table admin-stock-history" aria-labelledby="stock-history-heading">
            <thead>
              <tr>
                <th scope="col">{t('admin-date')}</th>
                <th scope="col">{t('admin-sku')}</th>
                <th scope="col">{t('admin-stock-change')}</th>
                <th scope="col">{t('admin-stock-after')}</th>
                <th scope="col">{t('admin-stock-reason')}</th>
                <th scope="col">{t('admin-stock-by')}</th>
              </tr>
            </thead>
            <tbody>
              {movements.map((movement) => (
                <tr key={movement.id}>
                  <td>{format.dateTime(movement.createdAt)}</td>
                  <td>{movement.sku}</td>
                  <td>{movement.delta > 0 ? `+${movement.delta}` : `−${-movement.delta}`}</td>
                  <td>{movement.balance}</td>
                  <td>
                    {t(STOCK_REASON_TEXTS[movement.reason])}
                    {movement.note ? <span className="admin-muted"> · {movement.note}</span> : null}
                  </td>
                  <td>
                    {movement.orderId !== null ? (
                      <Link to={`/admin/orders/${movement.orderId}`}>
                        {t('admin-order-link', { id: movement.orderId })}
                      </Link>
                    ) : (
                      (movement.actorEmail ?? '—')
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
