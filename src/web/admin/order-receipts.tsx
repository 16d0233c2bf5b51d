import { useAdminShop } from './text.ts';
import type { AdminOrder } from './types.ts';
import { useAdminFormat } from './ui.tsx';

/**
 * The order page's 54-FZ receipts (ADR 0051): the one registered with the payment, each refund's,
 * and the full payment receipt of a prepaid order once shipped, with their items as sent to
 * Robokassa, their total and state, and Robokassa's error when one failed.
 */

type AdminText = ReturnType<typeof useAdminShop>['t'];
type Receipt = AdminOrder['receipts'][number];

function purposeText(t: AdminText, purpose: Receipt['purpose']): string {
  const texts = {
    payment: t('admin-receipt-payment'),
    refund: t('admin-receipt-refund'),
    settlement: t('admin-receipt-settlement'),
  };
  return texts[purpose];
}

function stateText(t: AdminText, state: string): string {
  const known: Record<string, string> = {
    pending: t('admin-receipt-pending'),
    sent: t('admin-receipt-sent'),
    registered: t('admin-receipt-registered'),
    failed: t('admin-receipt-failed'),
  };
  return known[state] ?? state;
}

/** A 54-FZ VAT code as an accountant writes it: `vat20` 20 %, `vat120` 20/120, `none` without VAT. */
function taxText(t: AdminText, tax: string): string {
  if (tax === 'none') return t('admin-receipt-no-vat');
  const rate = /^vat(\d+)$/.exec(tax)?.[1];
  if (!rate) return tax;
  return rate.length === 3 && rate.startsWith('1') ? `${Number(rate) - 100}/${rate}` : `${rate} %`;
}

/** A 54-FZ settlement method (`full_prepayment`, `full_payment`) in the staff member's language. */
function settlementText(t: AdminText, method: string): string {
  const known: Record<string, string> = {
    full_prepayment: t('admin-receipt-full-prepayment'),
    full_payment: t('admin-receipt-full-payment'),
  };
  return known[method] ?? method;
}

export function OrderReceiptsSection({ receipts }: { receipts: AdminOrder['receipts'] }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  return (
    <section className="admin-card" aria-labelledby="receipts-heading">
      <h2 id="receipts-heading">{t('admin-receipts')}</h2>
      {receipts.length === 0 ? <p>{t('admin-receipts-empty')}</p> : null}
      {receipts.map((receipt) => (
        <div key={receipt.id}>
          <h3 id={`receipt-${receipt.id}`}>
            {purposeText(t, receipt.purpose)} · {format.dateTime(receipt.date)} ·{' '}
            <span className={`admin-receipt admin-receipt--${receipt.state}`}>
              {stateText(t, receipt.state)}
            </span>
          </h3>
          {receipt.error ? (
            <p className="form-field__error">{t('admin-receipt-error', { error: receipt.error })}</p>
          ) : null}
          {/* Focusable, so a keyboard can scroll the table sideways on a phone. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1) */}
          <div className="admin-table-scroll" tabIndex={0}>
            <table className="admin-table" aria-labelledby={`receipt-${receipt.id}`}>
              <thead>
                <tr>
                  <th scope="col">{t('admin-receipt-item')}</th>
                  <th scope="col">{t('admin-receipt-quantity')}</th>
                  <th scope="col">{t('admin-receipt-tax')}</th>
                  <th scope="col">{t('admin-receipt-method')}</th>
                  <th scope="col">{t('admin-sum')}</th>
                </tr>
              </thead>
              <tbody>
                {receipt.items.map((item) => (
                  <tr key={`${item.name}|${item.paymentObject}|${item.sum}`}>
                    <td>{item.name}</td>
                    <td>{item.quantity}</td>
                    <td>{taxText(t, item.tax)}</td>
                    <td>{settlementText(t, item.paymentMethod)}</td>
                    <td>{format.money(item.sum)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={4}>
                    {t('admin-total-cost')}
                  </th>
                  <td>
                    <strong>{format.money(receipt.total)}</strong>
                  </td>
                </tr>
              </tfoot>
            </table>
          </div>
        </div>
      ))}
    </section>
  );
}
