import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect, type ShouldRevalidateFunction } from 'react-router';
import { countryOptions } from '../../../contract/countries.ts';
import { currencyFor, kopecksToRoubles, roublesToKopecks, unitPrice } from '../../../contract/money.ts';
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
import { DollarsWithheldNote } from '../../components/dollars-withheld.tsx';
import { FormAlert, SubmitButton, TextAreaField, useFocusFirstError } from '../../components/form-field.tsx';
import { AmountRows, SummaryItems } from '../../components/order-amounts.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { UnpaidOrder } from '../../components/unpaid-order.tsx';
import { pricedLine, useAmounts } from '../../lib/amounts.ts';
import { basketIsOrderable, deliveryName, paymentMethods, refusalOf } from '../../lib/checkout.ts';
import { actionError, formFailure, invalidForm, parseForm, postedForm } from '../../lib/forms.ts';
import { orNotFound } from '../../lib/load.ts';
import { requireUser } from '../../lib/require-user.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/payment';

const COMMENT_MAX_LENGTH = 1000;

const paymentChoice = z.object({
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'payment-method-unknown' }).default(DEFAULT_PAYMENT_METHOD),
  comment: z.string().trim().max(COMMENT_MAX_LENGTH, 'field-too-long').optional(),
  checkoutKey: orderBody.shape.checkoutKey,
  shownTotal: orderBody.shape.shownTotal,
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
  await requireUser(context, { returnTo: url });
  if (url.searchParams.has('order')) {
    const orderId = Number(url.searchParams.get('order'));
    if (!Number.isInteger(orderId) || orderId <= 0) throw data(null, { status: 404 });
    const placed = await orNotFound(context.checkout.paymentPage(orderId, locale));
    if (!placed) throw redirect('/order/history');
    return { placed, checkout: null, offered: context.checkout.offered.payment };
  }

  if (context.checkout.errors.peek()) throw redirect('/order/error');
  const basket = await context.shopper.basket.get(locale);
  if (!basketIsOrderable(basket)) throw redirect(await withoutBasket(context, basket));
  const fresh = await freshDraftOrShipping(context);
  if (!fresh || !(fresh.draft.cost > 0)) throw redirect('/order/shipping');
  const { draft, requoted } = fresh;
  const { recipient } = draft;
  const products: Basket['products'] = basket.products;
  return {
    placed: null,
    offered: context.checkout.offered.payment,
    checkout: {
      /** The delivery was quoted again: the basket or the address changed since the shipping step. */
      requoted,
      // A submit of this page carries it: the same form sent again answers the order it placed.
      checkoutKey: crypto.randomUUID(),
      // What each payment method charges in: the summary shows that amount (ADR 0051).
      charged: context.checkout.chargeCurrencies(),
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
                price: unitPrice(item),
                discount: basket.promo?.lines[key] ?? 0,
              },
            ]
          : [];
      }),
      promoCode: basket.promo?.refused === null ? basket.promo.code : null,
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

/** An empty basket with an order awaiting payment goes to that order; otherwise to the cart. */
async function withoutBasket(context: Route.LoaderArgs['context'], basket: Basket) {
  if (basket.productList.length > 0) return '/cart';
  const unpaid = (await context.checkout.orders.list()).find((order) => order.status === 0);
  return unpaid ? `/order/payment?order=${unpaid.id}` : '/cart';
}

/** The draft quoted for the basket as it is now; a basket the carrier no longer quotes goes back a step. */
async function freshDraftOrShipping(context: Route.LoaderArgs['context']) {
  try {
    return await context.checkout.freshDraft(context.locale);
  } catch (error) {
    if (refusalOf(error)?.message === 'delivery-requote-failed') throw redirect('/order/shipping?requote=1');
    throw error;
  }
}

/** A total refused as changed shows the page again with the figures that would be charged. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  formFailure(actionResult)?.errorKey === 'total-changed' || defaultShouldRevalidate;

/**
 * Places the order (delivery quoted again on the server) and goes to the page that posts the
 * provider form; the same form submitted again goes to the same order. Unavailable items send the
 * shopper back to the cart, a missing delivery cost to the shipping step, any other refusal to the
 * order error page.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { locale } = context;
  await requireUser(context, { returnTo: '/order/payment' });
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
    if (refusal?.message === 'total-changed') return actionError(error, locale, formData);
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
  method: PaymentMethod | undefined;
}) {
  const { t, locale, usdRate } = useShop();
  const amounts = useAmounts(
    checkout.items.map((item) => pricedLine(item.price, item.count, item.discount)),
    roublesToKopecks(checkout.delivery.cost),
    { currency: method ? checkout.charged[method] : currencyFor(locale), usd_rate: usdRate },
  );
  return (
    <>
      {amounts.shownTotal === null ? null : (
        <input type="hidden" name="shownTotal" value={amounts.shownTotal} />
      )}
      {method === 'paypal' && currencyFor(locale) !== 'USD' ? (
        <p className="form-field__hint" data-testid="paypal-dollar-total">
          {t('paypal-charged-in-dollars', { total: amounts.total })}
        </p>
      ) : null}
      <SummaryItems items={checkout.items} amounts={amounts} />
      <dl className="summary-list">
        <AmountRows
          count={checkout.items.reduce((sum, item) => sum + item.count, 0)}
          amounts={amounts}
          days={checkout.delivery.days}
          promoCode={checkout.promoCode}
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
  const offered = paymentMethods.filter((option) => loaderData.offered.includes(option.method));
  const [method, setMethod] = useState<PaymentMethod | undefined>(() => {
    const posted = failure?.values?.paymentMethod;
    return (offered.find((option) => option.method === posted) ?? offered[0])?.method;
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
      <DollarsWithheldNote />
      {checkout.requoted && !failure ? (
        <p className="checkout__notice" role="status">
          {t('delivery-requoted')}
        </p>
      ) : null}
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
            {offered.map((option) => (
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
