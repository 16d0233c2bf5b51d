import { useEffect, useId, useRef } from 'react';
import { Link, useFetcher, useLocation } from 'react-router';
import { unitPrice } from '../../contract/money.ts';
import { pricedLine, useAmounts } from '../lib/amounts.ts';
import { useShop } from '../lib/shop.ts';
import type { loader } from '../routes/cart-lines.ts';
import { focusOpener } from './cart-drawer-host.tsx';
import { CloseIcon } from './icons.tsx';
import { ProductLine } from './product-line.tsx';

/**
 * What the cart holds right after an add (ADR 0063): its lines (newest first, with the chosen
 * variant), the total, Checkout and Continue shopping. A modal `<dialog>`: the browser moves focus
 * in, keeps Tab inside and closes it on Escape; `onClose` hears whether focus should go back to
 * the page (not when a link inside it was followed). A side drawer on wide screens, a bottom sheet
 * on phones (styles.css).
 */
export interface CartDrawerProps {
  /** The control that added: focus goes back there when the drawer closes. */
  opener: HTMLElement | null;
  onClose: (returnFocus: boolean) => void;
}

export function CartDrawer({ opener, onClose }: CartDrawerProps) {
  const { t } = useShop();
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const { load, data } = useFetcher<typeof loader>();
  const { pathname } = useLocation();
  const openedAt = useRef(pathname);
  useEffect(() => {
    load('/cart/lines');
  }, [load]);
  // The browser returns focus to what had it when the dialog opened, in the same moment as it closes
  // (Escape, the close buttons, the backdrop), a task before the `close` event. The add button lost
  // focus while it was disabled for the add, so it is given focus back first.
  useEffect(() => {
    if (dialog.current && !dialog.current.open) {
      focusOpener(opener, { preventScroll: true });
      dialog.current.showModal();
    }
  }, [opener]);
  // Checkout, the cart or a product followed from inside: the drawer goes with the page.
  useEffect(() => {
    if (pathname !== openedAt.current) onClose(false);
  }, [pathname, onClose]);

  const basket = data?.basket;
  const lines = basket
    ? [...basket.productList].reverse().flatMap((lineKey) => {
        const key = String(lineKey);
        const item = basket.products[key];
        return item ? [{ key, item }] : [];
      })
    : [];
  const amounts = useAmounts(
    lines.map(({ key, item }) => pricedLine(unitPrice(item), item.count, basket?.promo?.lines[key])),
    0,
  );
  const blocked = (basket?.unavailable.length ?? 0) > 0;
  const close = () => dialog.current?.close();

  return (
    // The content covers the whole dialog, so a click on the dialog itself is on the backdrop.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog natively; this is the mouse's way out
    <dialog
      ref={dialog}
      className="cart-drawer"
      aria-labelledby={headingId}
      onClose={() => onClose(true)}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="cart-drawer__content">
        <div className="cart-drawer__header">
          <h2 id={headingId}>{t('cart-drawer-heading')}</h2>
          <button type="button" className="icon-button" onClick={close}>
            <CloseIcon label={t('close')} />
          </button>
        </div>
        {basket ? (
          lines.length > 0 ? (
            <ul className="product-lines cart-drawer__lines">
              {lines.map(({ key, item }, index) => (
                <li key={key}>
                  <ProductLine
                    product={item}
                    options={item.options}
                    headingId={`${headingId}-${index}`}
                    unavailable={basket.unavailable.some((unavailable) => String(unavailable) === key)}
                  >
                    <p className="cart-drawer__count">{t('cart-drawer-count', { count: item.count })}</p>
                    <p className="product-line__total">
                      <span className="visually-hidden">{t('line-total')}: </span>
                      {amounts.line(index)}
                    </p>
                  </ProductLine>
                </li>
              ))}
            </ul>
          ) : (
            <p className="cart-drawer__lines">{t('cart-empty')}</p>
          )
        ) : (
          <p className="cart-drawer__lines" aria-busy="true">
            {t('cart-drawer-loading')}
          </p>
        )}
        <div className="cart-drawer__summary">
          {basket && lines.length > 0 ? (
            <p className="cart-summary__total">
              <span>{t('cart-total')}</span>
              <strong>{amounts.products}</strong>
            </p>
          ) : null}
          {blocked ? <p className="cart__warning">{t('cart-unavailable')}</p> : null}
          {basket && lines.length > 0 && !blocked ? (
            <Link to="/order/shipping" className="button button--primary">
              {t('go-to-checkout')}
            </Link>
          ) : null}
          <Link to="/cart" className={blocked ? 'button button--primary' : 'button'}>
            {t('open-cart')}
          </Link>
          <button type="button" className="button cart-drawer__continue" onClick={close}>
            {t('continue-shopping')}
          </button>
        </div>
      </div>
    </dialog>
  );
}
