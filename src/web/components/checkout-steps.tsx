import { Link } from 'react-router';
import type { MessageKey } from '../i18n/messages.ts';
import { useShop } from '../lib/shop.ts';

const STEPS: ReadonlyArray<{ name: MessageKey; to: string }> = [
  { name: 'cart', to: '/cart' },
  { name: 'order-shipping', to: '/order/shipping' },
  { name: 'order-payment', to: '/order/payment' },
];

/** Where the shopper is in the checkout: cart, delivery, payment; earlier steps are links back. */
export function CheckoutSteps({ current }: { current: 1 | 2 }) {
  const { t } = useShop();
  return (
    <nav className="checkout-steps" aria-label={t('checkout-steps')}>
      <ol>
        {STEPS.map((step, index) => (
          <li
            key={step.name}
            className={
              index === current
                ? 'checkout-steps__current'
                : index < current
                  ? 'checkout-steps__done'
                  : undefined
            }
            aria-current={index === current ? 'step' : undefined}
          >
            <span className="checkout-steps__number" aria-hidden="true">
              {index + 1}
            </span>
            {index < current ? <Link to={step.to}>{t(step.name)}</Link> : <span>{t(step.name)}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
