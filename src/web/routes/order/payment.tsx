import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import { countryOptions } from '../../../contract/countries.ts';
import { kopecksToRoubles, roublesToKopecks } from '../../../contract/money.ts';
import {
  DEFAULT_PAYMENT_METHOD,
  orderBody,
  PAYMENT_METHODS,
  type PaymentMethod,
} from '../../../contract/orders.ts';
import type { Basket } from '../../../contract/shopping.ts';
import { z } from '../../../contract/zod.ts';
import { CheckoutSteps } from '../../components/checkout-steps.tsx';
import { ChoiceCard } from '../../components/choice-card.tsx';
import { FormAlert, SubmitButton, TextAreaField, useFocusFirstError } from '../../components/form-field.tsx';
import { AmountRows, SummaryItems } from '../../components/order-amounts.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { UnpaidOrder } from '../../components/unpaid-order.tsx';
import { pricedLine, useAmounts } from '../../lib/amounts.ts';
import { basketIsOrderable, deliveryName, paymentMethods, refusalOf } from '../../lib/checkout.ts';
import { formFailure, invalidForm, parseForm, postedForm } from '../../lib/forms.ts';
import { orNotFound } from '../../lib/load.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/payment';

const COMMENT_MAX_LENGTH = 1000;

const paymentChoice = z.object({
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'payment-method-unknown' }).default(DEFAULT_PAYMENT_METHOD),
  comment: z.string().trim().max(COMMENT_MAX_LENGTH, 'field-too-long').optional(),
  checkoutKey: orderBody.shape.checkoutKey,
});

/**
 * The payment step. `?order=` shows one of the user's unpaid orders with "Pay now" and "Cancel
 * order" (the action redirects there, so a reload never places it twice); right after placing it,
 * the page posts the provider form by itself, once: the way back from the provider shows the
 * buttons. An order no longer awaiting payment goes to the order history. Without `?order=`: to the
 * error page if the last order failed, to the cart if an item is unavailable, to the shipping step
 * without a positive delivery cost; then the payment method, an optional comment and the summary.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { locale } = context;
  if (!(await context.account.currentUser())) {
    throw redirect(`/login?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  }
  if (url.searchParams.has('order')) {
    const orderId = Number(url.searchParams.get('order'));
    if (!Number.isInteger(orderId) || orderId <= 0) throw data(null, { status: 404 });
    const placed = await orNotFound(context.checkout.paymentPage(orderId, locale));
    if (!placed) throw redirect('/order/history');
    return { placed, checkout: null };
  }

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
      // What each payment method charges in: the summary shows that amount (ADR 0051).
      charged: context.checkout.chargeCurrencies(locale),
      items: basket.productList.flatMap((key) => {
        const item = products[key];
        return item
          ? [
              {
                key,
                name: item.name,
                options: item.options,
                link: item.link,
                count: item.count,
                price: item.sale ?? item.price,
              },
            ]
          : [];
      }),
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
  const formData = await postedForm(request);
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

/**
 * An unpaid order with "Pay now" and "Cancel order". Right after it was placed the page posts the
 * provider form by itself, once; coming back (Back from the provider, a reload) the server says it
 * is no longer just placed, and a page the browser restores from its back-forward cache drops the
 * "taking you to the payment page" note, so the shopper always gets the buttons.
 */
function PlacedOrder({ placed }: { placed: Placed }) {
  const { t } = useShop();
  const payForm = useRef<HTMLFormElement>(null);
  const [redirecting, setRedirecting] = useState(placed.justPlaced);
  useEffect(() => {
    if (placed.justPlaced) payForm.current?.submit();
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [placed.justPlaced]);
  const title = t('payment-awaiting', { order: placed.order.id });
  return (
    <section className="order-outcome" aria-labelledby="payment-order-heading">
      <PrivatePageHead title={title} />
      <h1 id="payment-order-heading">{title}</h1>
      {redirecting ? (
        <p className="order-outcome__pending" role="status">
          <span className="spinner" aria-hidden="true" /> {t('payment-redirect')}
        </p>
      ) : null}
      <UnpaidOrder unpaid={placed} payForm={payForm} />
    </section>
  );
}

/**
 * The checkout summary: lines, products, delivery and total computed together (ADR 0024), in the
 * currency the chosen method charges; roubles charged to a shopper reading dollars (Robokassa, ADR
 * 0051) come with dollars as a guide.
 */
function CheckoutSummary({
  checkout,
  method,
}: {
  checkout: NonNullable<Route.ComponentProps['loaderData']['checkout']>;
  method: PaymentMethod;
}) {
  const { t, usdRate } = useShop();
  const amounts = useAmounts(
    checkout.items.map((item) => pricedLine(item.price, item.count)),
    roublesToKopecks(checkout.delivery.cost),
    { currency: checkout.charged[method], usd_rate: usdRate },
  );
  return (
    <>
      <SummaryItems items={checkout.items} amounts={amounts} />
      <dl className="summary-list">
        <AmountRows
          count={checkout.items.reduce((sum, item) => sum + item.count, 0)}
          amounts={amounts}
          days={checkout.delivery.days}
        />
      </dl>
      {amounts.guide ? (
        <p className="form-field__hint">
          {t('payment-roubles-charged', { total: amounts.total, guide: amounts.guide })}
        </p>
      ) : null}
    </>
  );
}

export default function PaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const [method, setMethod] = useState<PaymentMethod>(() => {
    const posted = failure?.values?.paymentMethod;
    return paymentMethods.find((option) => option.method === posted)?.method ?? DEFAULT_PAYMENT_METHOD;
  });
  if (loaderData.placed) return <PlacedOrder placed={loaderData.placed} />;
  const { checkout } = loaderData;
  if (!checkout) return null;

  const deliveryKey = deliveryName(checkout.delivery.method);

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
          <CheckoutSummary checkout={checkout} method={method} />
          <SubmitButton>{t('pay')}</SubmitButton>
          <p className="form-field__hint">{t('pay-hint')}</p>
        </aside>
      </Form>
    </div>
  );
}
