import { type ReactNode, useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { useShop } from '../lib/shop.ts';
import { addToCartKey } from './shopper-buttons.tsx';

/**
 * A product page's add-to-cart bar along the bottom of a phone's screen (≤ 640 px, styles.css),
 * there once the page's own "Add to cart" has scrolled up out of view: the product's name, the
 * chosen variant's price and a button that sends the page's add form, so a size left unchosen is
 * asked for beside the picker, as the page's own button does. Only with JavaScript.
 */
export function StickyAddBar({
  form,
  productId,
  name,
  price,
}: {
  /** The id of the page's add-to-cart form, which the bar watches and sends. */
  form: string;
  productId: number;
  name: string;
  price: ReactNode;
}) {
  const { t } = useShop();
  const [shown, setShown] = useState(false);
  const sending = useFetcher({ key: addToCartKey(productId) }).state !== 'idle';
  useEffect(() => {
    const target = document.getElementById(form);
    if (!target || typeof IntersectionObserver === 'undefined') return undefined;
    // The screen stretched far down: the form leaves it only by going up past its top edge, which
    // a fling that jumps from below the screen to above it crosses too.
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry) setShown(!entry.isIntersecting);
      },
      { rootMargin: '0px 0px 100000px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [form]);
  if (!shown) return null;
  return (
    <div className="sticky-add">
      <div className="sticky-add__product">
        <p className="sticky-add__name">{name}</p>
        {price}
      </div>
      <button
        type="submit"
        form={form}
        className="button button--primary"
        disabled={sending}
        aria-label={t('add-to-cart-named', { name })}
      >
        {t('add-to-cart')}
      </button>
    </div>
  );
}
