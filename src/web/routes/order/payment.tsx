import { useEffect, useRef, useState } from 'react';
import { Form, redirect } from 'react-router';
import { z } from 'zod';
import { countryOptions } from '../../../contract/countries.ts';
import { formatPrice, kopecksToRoubles } from '../../../contract/money.ts';
import {
  DEFAULT_PAYMENT_METHOD,
  orderBody,
  PAYMENT_METHODS,
  type PaymentMethod,
} from '../../../contract/orders.ts';
import type { Basket } from '../../../contract/shopping.ts';
import { CheckoutSteps } from '../../components/checkout-steps.tsx';
import { ChoiceCard } from '../../components/choice-card.tsx';
import { FormAlert, SubmitButton, TextAreaField, useFocusFirstError } from '../../components/form-field.tsx';
import { Link } from '../../components/link.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { basketIsOrderable, daysText, deliveryName, paymentMethods, refusalOf } from '../../lib/checkout.ts';
import { formFailure, invalidForm, parseForm } from '../../lib/forms.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/payment';

const COMMENT_MAX_LENGTH = 1000;

const paymentChoice = z.object({
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'payment-method-unknown' }).default(DEFAULT_PAYMENT_METHOD),
  comment: z.string().trim().max(COMMENT_MAX_LENGTH, 'field-too-long').optional(),
  checkoutKey: orderBody.shape.checkoutKey,
});

/**
 * The payment step. `?order=` shows the provider form of the order this session just placed (the
 * action redirects there, so a reload never places it twice). Otherwise: to the error page if the
 * last order failed, to the cart if an item is unavailable, to the shipping step without a positive
 * delivery cost; then the payment method, an optional comment and the summary.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { locale } = context;
  if (!(await context.account.currentUser())) throw redirect('/login?redirectTo=/order/payment');
  const orderId = Number(url.searchParams.get('order'));
  const placed = Number.isInteger(orderId) && orderId > 0 ? context.checkout.pendingPayment(orderId) : null;
  if (placed) return { placed, checkout: null };

  if (context.checkout.errors.peek()) throw redirect('/order/error');
  const basket = await context.shopper.basket.get(locale);
  if (!basketIsOrderable(basket)) throw redirect('/cart');
  const draft = context.checkout.draft.get();
  if (!draft || !(draft.cost > 0)) throw redirect('/order/shipping');
  const { recipient } = draft;
  const products: Basket['products'] = basket.products;
  return {
    placed: null,
    checkout: {
      // A submit of this page carries it: the same form sent again answers the order it placed.
      checkoutKey: crypto.randomUUID(),
      items: basket.productList.flatMap((id) => {
        const item = products[id];
        return item
          ? [{ id, name: item.name, link: item.link, count: item.count, price: item.sale ?? item.price }]
          : [];
      }),
      productsCost: basket.total,
      delivery: { method: draft.deliveryMethod, cost: kopecksToRoubles(draft.cost), days: draft.days },
      recipient: {
        name: `${recipient.firstName} ${recipient.lastName}`,
        email: recipient.email,
        phone: recipient.phone,
        address: [
          recipient.zip,
          countryOptions(locale).find((country) => country.value === recipient.country)?.name ??
            recipient.country,
          recipient.city,
          recipient.address,
        ].join(', '),
      },
    },
  };
}

/**
 * Places the order (delivery quoted again on the server) and goes to the page that posts the
 * provider form; the same form submitted again goes to the same order. Unavailable items send the
 * shopper back to the cart, a missing delivery cost to the shipping step, any other refusal to the
 * order error page.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { locale } = context;
  if (!(await context.account.currentUser())) throw redirect('/login?redirectTo=/order/payment');
  const formData = await request.formData();
  const parsed = parseForm(paymentChoice, formData);
  if (!parsed.ok) return invalidForm(parsed.errors, locale, formData);
  let orderId: number;
  try {
    orderId = (await context.checkout.placeOrder({ ...parsed.data, locale })).order.id;
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal?.message === 'basket-unavailable' || refusal?.message === 'basket-empty')
      throw redirect('/cart');
    if (refusal?.message === 'delivery-cost-required') throw redirect('/order/shipping');
    if (!refusal) console.error(error);
    await context.checkout.errors.set(
      refusal
        ? { intlError: refusal.intlError ?? '', error: refusal.message }
        : { intlError: 'internal-server-error', error: '' },
    );
    throw redirect('/order/error');
  }
  throw redirect(`/order/payment?order=${orderId}`);
}

type Placed = NonNullable<Route.ComponentProps['loaderData']['placed']>;

/** Posts the provider form by itself; the button is there for browsers without JavaScript. */
function PaymentRedirect({ placed }: { placed: Placed }) {
  const { t, locale } = useShop();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  const amount = new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-US', {
    style: 'currency',
    currency: placed.order.currency,
  }).format(Number(placed.order.amount));
  return (
    <section className="order-outcome payment-redirect" aria-labelledby="payment-redirect-heading">
      <PrivatePageHead title={t('payment-redirect')} />
      <h1 id="payment-redirect-heading">{t('payment-redirect')}</h1>
      <p>{t('payment-redirect-text', { order: placed.order.id, amount })}</p>
      <form ref={form} method="post" action={placed.payment.url}>
        {Object.entries(placed.payment.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="button button--primary">
          {t('payment-continue')}
        </button>
      </form>
    </section>
  );
}

export default function PaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale, usdRate } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const [method, setMethod] = useState<PaymentMethod>(() => {
    const posted = failure?.values?.paymentMethod;
    return paymentMethods.find((option) => option.method === posted)?.method ?? DEFAULT_PAYMENT_METHOD;
  });
  if (loaderData.placed) return <PaymentRedirect placed={loaderData.placed} />;
  const { checkout } = loaderData;
  if (!checkout) return null;

  const price = (roubles: number) => formatPrice(roubles, locale, usdRate) ?? t('price-unavailable');
  const deliveryKey = deliveryName(checkout.delivery.method);
  const total = checkout.productsCost + checkout.delivery.cost;

  return (
    <div className="checkout">
      <PrivatePageHead title={t('order-payment')} />
      <CheckoutSteps current={2} />
      <h1>{t('order-payment')}</h1>
      <FormAlert>{failure?.formError}</FormAlert>
      <Form method="post" ref={form} noValidate className="checkout__layout">
        <input type="hidden" name="checkoutKey" value={checkout.checkoutKey} />
        <div className="checkout__main">
          <fieldset className="checkout-section choice-list">
            <legend>
              <h2>{t('payment-method')}</h2>
            </legend>
            {failure?.errors.paymentMethod ? (
              <p className="form-field__error">{failure.errors.paymentMethod.join(' ')}</p>
            ) : null}
            {paymentMethods.map((option) => (
              <ChoiceCard
                key={option.method}
                name="paymentMethod"
                value={option.method}
                checked={method === option.method}
                onChoose={() => setMethod(option.method)}
                image={option.image}
                title={t(option.name)}
                description={t(option.description)}
              />
            ))}
          </fieldset>

          <section className="checkout-section" aria-labelledby="payment-recipient-heading">
            <div className="checkout-section__header">
              <h2 id="payment-recipient-heading">{t('recipient')}</h2>
              <Link to="/order/shipping">{t('change')}</Link>
            </div>
            <dl className="recipient-summary">
              <div>
                <dt>{t('recipient-name')}</dt>
                <dd>{checkout.recipient.name}</dd>
              </div>
              <div>
                <dt>{t('email')}</dt>
                <dd>{checkout.recipient.email}</dd>
              </div>
              <div>
                <dt>{t('phone')}</dt>
                <dd>{checkout.recipient.phone}</dd>
              </div>
              <div>
                <dt>{t('delivery-method')}</dt>
                <dd>{deliveryKey ? t(deliveryKey) : checkout.delivery.method}</dd>
              </div>
              <div>
                <dt>{t('delivery-address')}</dt>
                <dd>{checkout.recipient.address}</dd>
              </div>
            </dl>
          </section>

          <div className="checkout-section">
            <TextAreaField
              name="comment"
              label={t('order-comment')}
              hint={t('order-comment-hint')}
              maxLength={COMMENT_MAX_LENGTH}
              rows={3}
              defaultValue={failure?.values?.comment ?? ''}
              errors={failure?.errors.comment}
            />
          </div>
        </div>

        <aside className="checkout-summary" aria-labelledby="payment-summary-heading">
          <h2 id="payment-summary-heading">{t('order-summary')}</h2>
          <ul className="summary-items">
            {checkout.items.map((item) => (
              <li key={item.id}>
                <Link to={`/product/${item.link}`}>{item.name}</Link>
                <span className="summary-items__count">× {item.count}</span>
                <span className="summary-items__price">{price(item.price * item.count)}</span>
              </li>
            ))}
          </ul>
          <dl className="summary-list">
            <div>
              <dt>
                {t('products-cost', { count: checkout.items.reduce((sum, item) => sum + item.count, 0) })}
              </dt>
              <dd>{price(checkout.productsCost)}</dd>
            </div>
            <div>
              <dt>{t('delivery-cost')}</dt>
              <dd>{price(checkout.delivery.cost)}</dd>
            </div>
            {checkout.delivery.days ? (
              <div>
                <dt>{t('delivery-time')}</dt>
                <dd>{daysText(t, checkout.delivery.days)}</dd>
              </div>
            ) : null}
            <div className="summary-list__total">
              <dt>{t('order-total')}</dt>
              <dd>{price(total)}</dd>
            </div>
          </dl>
          <SubmitButton>{t('pay')}</SubmitButton>
          <p className="form-field__hint">{t('pay-hint')}</p>
        </aside>
      </Form>
    </div>
  );
}
