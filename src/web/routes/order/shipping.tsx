import { type FormEvent, useEffect, useRef, useState } from 'react';
import { data, Form, redirect, useFetcher } from 'react-router';
import { countryOptions } from '../../../contract/countries.ts';
import {
  type DeliveryMethod,
  hasPickupPointPrefix,
  isDeliveryMethod,
  PICKUP_POINT_PREFIX,
} from '../../../contract/delivery.ts';
import { translateError } from '../../../contract/error-messages.ts';
import type { Locale } from '../../../contract/locale.ts';
import { roublesToKopecks, unitPrice } from '../../../contract/money.ts';
import { recipientSchema } from '../../../contract/orders.ts';
import { CheckoutSteps } from '../../components/checkout-steps.tsx';
import { ChoiceCard } from '../../components/choice-card.tsx';
import { DollarsWithheldNote } from '../../components/dollars-withheld.tsx';
import {
  FormAlert,
  FormField,
  SelectField,
  useFocusFirstError,
  useFormPending,
} from '../../components/form-field.tsx';
import { AmountRows } from '../../components/order-amounts.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { PickupPointPicker } from '../../components/pickup-point-picker.tsx';
import { pricedLine, useAmounts } from '../../lib/amounts.ts';
import { openBoxberryWidget } from '../../lib/boxberry-widget.ts';
import {
  basketIsOrderable,
  DELIVERY_QUOTE_DELAY_MS,
  deliveryOptions,
  type QuoteAnswer,
  quoteKey,
  quoteUrl,
  refusalOf,
  splitPickupPointAddress,
} from '../../lib/checkout.ts';
import {
  actionError,
  type FormFailure,
  formFailure,
  formValues,
  invalidForm,
  parseForm,
  postedForm,
} from '../../lib/forms.ts';
import { requireUser } from '../../lib/require-user.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/shipping';

const RECIPIENT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'country',
  'city',
  'zip',
  'address',
  'pickupPointCode',
] as const;
type RecipientField = (typeof RECIPIENT_FIELDS)[number];
/** Fields the shopper types in; the pickup point's code is set by choosing a point. */
type TypedField = Exclude<RecipientField, 'country' | 'pickupPointCode'>;
type RecipientValues = Record<RecipientField, string>;

/** The chosen pickup point's code, which only a Boxberry pickup delivery is quoted and sent with. */
const pointOf = (method: string, recipient: RecipientValues) =>
  method === 'boxberry' ? recipient.pickupPointCode : '';

async function quoteOrError(
  context: Route.LoaderArgs['context'],
  method: DeliveryMethod,
  recipient: RecipientValues,
  locale: Locale,
): Promise<QuoteAnswer | null> {
  const pickupPointCode = pointOf(method, recipient);
  const key = quoteKey(method, recipient.country, recipient.zip, pickupPointCode);
  if (recipient.country.trim() === '' || recipient.zip.trim() === '') return null;
  try {
    const quote = await context.checkout.quote(
      {
        method,
        country: recipient.country.trim().toUpperCase(),
        zip: recipient.zip.trim(),
        pickupPointCode: pickupPointCode || undefined,
      },
      locale,
    );
    return { key, cost: quote.cost, days: quote.days };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return { key, error: translateError(locale, refusal.message) };
  }
}

/**
 * The delivery step: the method, the recipient (from the draft, else the profile) and the cost of
 * the basket by that method to that address, quoted on the server so the page shows it without
 * JavaScript too.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { locale } = context;
  await requireUser(context, { returnTo: '/order/shipping' });
  const basket = await context.shopper.basket.get(locale);
  if (!basketIsOrderable(basket)) throw redirect('/cart');
  const draft = context.checkout.draft.get();
  const start = draft
    ? { recipient: draft.recipient, method: draft.deliveryMethod }
    : await context.checkout.rememberedRecipient();
  const recipient: RecipientValues = {
    ...start.recipient,
    pickupPointCode: start.recipient.pickupPointCode ?? '',
  };
  const offered = context.checkout.offered.delivery;
  const method: DeliveryMethod = start.method && offered.includes(start.method) ? start.method : offered[0];
  const widget = context.checkout.boxberryWidget();
  return {
    /** The payment step could not quote the changed basket or address again (ADR 0059). */
    requoteFailed: url.searchParams.has('requote'),
    recipient,
    method,
    offered,
    quote: await quoteOrError(context, method, recipient, locale),
    products: {
      count: basket.count,
      total: basket.total,
      lines: basket.productList.flatMap((key) => {
        const item = basket.products[String(key)];
        return item ? [pricedLine(unitPrice(item), item.count, basket.promo?.lines[key] ?? 0)] : [];
      }),
    },
    countries: countryOptions(locale),
    widget: widget
      ? { ...widget, orderSum: basket.total, weightGrams: await context.shopper.basket.weight() }
      : null,
  };
}

/** Checks the recipient, quotes the delivery on the server, keeps the choice and goes to payment. */
export async function action({ context, request }: Route.ActionArgs) {
  const { locale } = context;
  await requireUser(context, { returnTo: '/order/shipping' });
  const formData = await postedForm(request);
  const method = String(formData.get('deliveryMethod') ?? '');
  const parsed = parseForm(recipientSchema, formData);
  if (!isDeliveryMethod(method)) {
    const errors = parsed.ok ? {} : parsed.errors;
    return invalidForm({ ...errors, deliveryMethod: ['delivery-method-unknown'] }, locale, formData);
  }
  if (!parsed.ok) return invalidForm(parsed.errors, locale, formData);
  try {
    await context.checkout.saveShipping(method, parsed.data, locale);
  } catch (error) {
    const refusal = refusalOf(error);
    // An unreachable carrier is a refusal of this attempt, shown above the form like the others.
    if (refusal?.status === 503) {
      const failure: FormFailure = {
        errors: {},
        formError: translateError(locale, refusal.message),
        values: formValues(formData),
      };
      return data(failure, { status: 503 });
    }
    return actionError(error, locale, formData);
  }
  return redirect('/order/payment');
}

/**
 * The live delivery cost: requested 2.5 s after the last change of method, country or postcode when
 * both are filled in (at once when the page is left meanwhile); an answer for inputs that have
 * changed since is ignored.
 */
function useDeliveryQuote(
  initial: QuoteAnswer | null,
  method: string,
  country: string,
  zip: string,
  pickupPointCode: string,
) {
  const fetcher = useFetcher<QuoteAnswer>();
  const key = quoteKey(method, country, zip, pickupPointCode);
  const complete = country.trim() !== '' && zip.trim() !== '';
  const [scheduled, setScheduled] = useState(false);
  const lastKey = useRef(key);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pendingUrl = useRef<string | null>(null);
  const load = useRef(fetcher.load);
  load.current = fetcher.load;

  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    clearTimeout(timer.current);
    if (!complete) {
      pendingUrl.current = null;
      setScheduled(false);
      return;
    }
    const url = quoteUrl(method, country, zip, pickupPointCode);
    pendingUrl.current = url;
    setScheduled(true);
    timer.current = setTimeout(() => {
      pendingUrl.current = null;
      setScheduled(false);
      void load.current(url);
    }, DELIVERY_QUOTE_DELAY_MS);
  }, [key, complete, method, country, zip, pickupPointCode]);

  // Leaving early asks at once, so the carrier's answer is in the server's cache for the next visit.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (pendingUrl.current) void fetch(pendingUrl.current).catch(() => {});
    },
    [],
  );

  const fetched = fetcher.data?.key === key ? fetcher.data : null;
  const answer = !complete ? null : (fetched ?? (initial?.key === key ? initial : null));
  const inProgress = complete && (scheduled || fetcher.state !== 'idle');
  return {
    inProgress,
    cost: !inProgress && answer && 'cost' in answer ? answer.cost : 0,
    days: !inProgress && answer && 'cost' in answer ? answer.days : null,
    error: !inProgress && answer && 'error' in answer ? answer.error : null,
  };
}

const FIELD_META: Record<
  TypedField,
  {
    label: 'first-name' | 'last-name' | 'email' | 'phone' | 'city' | 'zip' | 'address';
    autoComplete: string;
    type?: string;
    wide?: boolean;
  }
> = {
  firstName: { label: 'first-name', autoComplete: 'given-name' },
  lastName: { label: 'last-name', autoComplete: 'family-name' },
  email: { label: 'email', autoComplete: 'email', type: 'email' },
  phone: { label: 'phone', autoComplete: 'tel', type: 'tel' },
  city: { label: 'city', autoComplete: 'address-level2' },
  zip: { label: 'zip', autoComplete: 'postal-code' },
  address: { label: 'address', autoComplete: 'address-line1', wide: true },
};

export default function ShippingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useShop();
  const failure = formFailure(actionData);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstError(form, failure);
  const pending = useFormPending();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const [method, setMethod] = useState<DeliveryMethod>(() => {
    const posted = failure?.values?.deliveryMethod;
    return posted && isDeliveryMethod(posted) ? posted : loaderData.method;
  });
  const [values, setValues] = useState<RecipientValues>(() => {
    const posted = failure?.values;
    return Object.fromEntries(
      RECIPIENT_FIELDS.map((name) => [name, posted?.[name] ?? loaderData.recipient[name]]),
    ) as RecipientValues;
  });
  const [pickerOpen, setPickerOpen] = useState(false);
  const pickupPointCode = pointOf(method, values);
  const quote = useDeliveryQuote(loaderData.quote, method, values.country, values.zip, pickupPointCode);

  const set = (name: RecipientField, value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const pointChosen = (current: RecipientValues) =>
    hasPickupPointPrefix(current.address) && current.pickupPointCode !== '';
  const needsPickupPoint = method === 'boxberry' && !pointChosen(values);

  const choosePoint = (point: { code: string; address: string }) => {
    setPickerOpen(false);
    const split = splitPickupPointAddress(point.address, PICKUP_POINT_PREFIX[locale]);
    setValues((current) => ({
      ...current,
      country: 'RU',
      zip: split.zip ?? current.zip,
      city: split.city ?? current.city,
      address: split.address,
      pickupPointCode: point.code,
    }));
  };

  const openPicker = () => {
    const { widget } = loaderData;
    if (!widget) {
      setPickerOpen(true);
      return;
    }
    // The real widget; if Boxberry's script cannot be loaded, the built-in list does the job.
    openBoxberryWidget(widget, values.city, choosePoint).catch(() => setPickerOpen(true));
  };

  const chooseMethod = (next: DeliveryMethod) => {
    setMethod(next);
    if (next === 'boxberry' && !pointChosen(values)) openPicker();
  };

  const costKnown = quote.cost > 0;
  const blocked = hydrated && !quote.inProgress && !costKnown;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (needsPickupPoint) {
      event.preventDefault();
      openPicker();
    } else if (blocked || pending) {
      event.preventDefault();
    }
  };

  const amounts = useAmounts(loaderData.products.lines, costKnown ? roublesToKopecks(quote.cost) : 0);
  const { countries } = loaderData;

  const textField = (name: TypedField) => {
    const meta = FIELD_META[name];
    return (
      <FormField
        key={name}
        name={name}
        type={meta.type ?? 'text'}
        label={t(meta.label)}
        autoComplete={meta.autoComplete}
        wide={meta.wide}
        required
        value={values[name]}
        onChange={(event) => set(name, event.target.value)}
        errors={failure?.errors[name]}
        hint={name === 'address' && method === 'boxberry' ? t('pickup-point-address-hint') : undefined}
      />
    );
  };

  return (
    <div className="checkout">
      <PrivatePageHead title={t('order-shipping')} />
      <CheckoutSteps current={1} />
      <h1>{t('order-shipping')}</h1>
      <FormAlert>
        {failure?.formError ??
          (loaderData.requoteFailed ? translateError(locale, 'delivery-requote-failed') : null)}
      </FormAlert>
      <DollarsWithheldNote />
      <Form method="post" ref={form} noValidate className="checkout__layout" onSubmit={onSubmit}>
        <div className="checkout__main">
          <fieldset
            className="checkout-section choice-list"
            aria-describedby={quote.error ? 'delivery-error' : undefined}
          >
            <legend>
              <h2>{t('delivery-method')}</h2>
            </legend>
            {failure?.errors.deliveryMethod ? (
              <p className="form-field__error">{failure.errors.deliveryMethod.join(' ')}</p>
            ) : null}
            {deliveryOptions
              .filter((option) => loaderData.offered.includes(option.method))
              .map((option) => (
                <ChoiceCard
                  key={option.method}
                  name="deliveryMethod"
                  value={option.method}
                  checked={method === option.method}
                  onChoose={() => chooseMethod(option.method)}
                  image={option.image}
                  title={t(option.name)}
                  description={t(option.description)}
                />
              ))}
            {quote.error ? (
              <div className="delivery-error" id="delivery-error" role="alert">
                <h3>{t('delivery-error')}</h3>
                <p>{quote.error}</p>
              </div>
            ) : null}
            {method === 'boxberry' ? (
              <div className="pickup-choice">
                <p>{needsPickupPoint ? t('pickup-point-needed') : values.address}</p>
                {failure?.errors.pickupPointCode ? (
                  <p className="form-field__error">{failure.errors.pickupPointCode.join(' ')}</p>
                ) : null}
                <button type="button" className="button" onClick={openPicker}>
                  {needsPickupPoint ? t('pickup-point-choose-title') : t('pickup-point-change')}
                </button>
              </div>
            ) : null}
          </fieldset>

          <fieldset className="checkout-section">
            <legend>
              <h2>{t('recipient')}</h2>
            </legend>
            <p className="form-field__hint">{t('recipient-hint')}</p>
            <div className="form-grid recipient-grid">
              {textField('firstName')}
              {textField('lastName')}
              {textField('email')}
              {textField('phone')}
              <SelectField
                name="country"
                label={t('country')}
                autoComplete="country"
                required
                value={values.country}
                onChange={(event) => set('country', event.target.value)}
                errors={failure?.errors.country}
              >
                <option value="">{t('country-not-chosen')}</option>
                {countries.map((country) => (
                  <option key={country.value} value={country.value}>
                    {country.name}
                  </option>
                ))}
              </SelectField>
              {textField('city')}
              {textField('zip')}
              {textField('address')}
              <input type="hidden" name="pickupPointCode" value={pickupPointCode} />
            </div>
          </fieldset>
        </div>

        <aside className="checkout-summary checkout-summary--bar" aria-labelledby="shipping-summary-heading">
          <h2 id="shipping-summary-heading">{t('order-summary')}</h2>
          <dl className="summary-list">
            <AmountRows
              count={loaderData.products.count}
              amounts={amounts}
              days={quote.days}
              delivery={
                <dd aria-live="polite" aria-busy={quote.inProgress}>
                  {quote.inProgress ? (
                    <span className="summary-list__pending">
                      <span className="spinner" aria-hidden="true" /> {t('delivery-calculating')}
                    </span>
                  ) : costKnown ? (
                    amounts.delivery
                  ) : (
                    '—'
                  )}
                </dd>
              }
            />
          </dl>
          <button
            type="submit"
            className="button button--primary submit-button checkout-summary__next"
            disabled={blocked || pending}
            aria-busy={pending}
            aria-describedby={blocked ? 'shipping-next-hint' : undefined}
          >
            {pending ? <span className="spinner" aria-hidden="true" /> : null}
            {t('next')}
          </button>
          {blocked ? (
            <p id="shipping-next-hint" className="form-field__hint">
              {t('delivery-cost-needed')}
            </p>
          ) : null}
        </aside>
      </Form>
      <PickupPointPicker
        open={pickerOpen}
        city={values.city}
        zip={values.zip}
        onChoose={choosePoint}
        onClose={() => setPickerOpen(false)}
      />
    </div>
  );
}
