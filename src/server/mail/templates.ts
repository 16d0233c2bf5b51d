import { trackingUrl } from '../../contract/delivery.ts';
import type { Locale } from '../../contract/locale.ts';
import { amountsIn, type Currency, minorToMajor, roublesToKopecks } from '../../contract/money.ts';
import type { DELIVERY_METHODS } from '../db/schema.ts';

/**
 * Every e-mail the shop sends, in Russian and English. A template composes its content from a few
 * kinds of blocks (paragraph, button, details, items, quote, note); one layout turns the blocks into
 * the HTML part (inline styles, every value escaped) and the plain-text part, so the two parts say
 * the same thing and no template writes HTML by hand.
 */

export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export interface OrderedItem {
  name: string;
  /** The variant's options in the mail's language ("Size: L") and its SKU; absent for a product without options. */
  variant?: { options: string; sku: string };
  count: number;
  /** Price of one unit, roubles. */
  price: number;
  /** Roubles of the order's promo discount the whole line carries (ADR 0058); absent or 0 when none. */
  discount?: number;
}

/** An order as its mails summarise it: items, amounts, delivery method and address. Roubles. */
export interface OrderMailData {
  orderId: number;
  items: OrderedItem[];
  productsCost: number;
  deliveryCost: number;
  total: number;
  /** USD shows every amount in dollars at `usdRate` (roubles per dollar); without a rate, roubles. */
  currency: Currency;
  usdRate?: number;
  deliveryMethod: DeliveryMethod;
  address: string;
}

/** What each template needs. Amounts are roubles unless said otherwise. */
export interface MailData {
  'verify-email': { link: string };
  'reset-password': { link: string; expiresInHours: number };
  /** Someone tried to register with the reader's address (ADR 0055): the ways back into the account. */
  'account-exists': { signInLink: string; restoreLink: string };
  /** Sent to the shop's own address, with reply-to set to the visitor. */
  feedback: { name: string; email: string; message: string };
  'order-placed': OrderMailData;
  /** The same order summary, its amounts as the provider confirmed them. */
  'payment-received': OrderMailData;
  /** Sent to the shop's own address when an order is paid: what to pack, for whom, and where to see it. */
  'new-paid-order': OrderMailData & { customer: string; email: string; phone: string; link?: string };
  /** `note`: the shop's own words when staff cancelled the order (shown as they wrote them). */
  'order-cancelled': { orderId: number; reason: 'expired' | 'cancelled'; note?: string };
  /** A refund sent back: `amount` in `currency`; `full` when the whole payment is back (the order is cancelled). */
  'order-refunded': { orderId: number; amount: number; currency: Currency; full: boolean };
  'order-shipped': { orderId: number; trackCode: string; deliveryMethod: DeliveryMethod };
  /** A parcel arrived at the post office or pickup point and waits for the shopper (ADR 0057). */
  'parcel-waiting': {
    orderId: number;
    trackCode: string;
    deliveryMethod: DeliveryMethod;
    place: string | null;
  };
  'envisioned-available': { productName: string; link: string };
  /** A variant a shopper waited for is in stock again; `options` is its label ("Size: L") or null. */
  'back-in-stock': { productName: string; options: string | null; link: string };
  /** A product the reader asked to be reminded of went on sale (ADR 0041). */
  'release-reminder': { productName: string; link: string };
  /** An admin made the reader staff: the link sets a password (a reset token) and opens the way in. */
  'staff-invite': { role: 'manager' | 'admin'; link: string; expiresInHours: number };
}

export type MailTemplate = keyof MailData;

export const MAIL_TEMPLATES = [
  'verify-email',
  'reset-password',
  'account-exists',
  'feedback',
  'order-placed',
  'payment-received',
  'new-paid-order',
  'order-cancelled',
  'order-refunded',
  'order-shipped',
  'parcel-waiting',
  'envisioned-available',
  'back-in-stock',
  'release-reminder',
  'staff-invite',
] as const satisfies readonly MailTemplate[];

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** Who the mail comes from, for the header link and the footer. */
export interface MailShop {
  email: string;
  /** The shop's public origin; the header links to it when given. */
  url?: string;
  /** The language of mails to `email` itself (SHOP_LOCALE); Russian when not given. */
  locale?: Locale;
}

export const DEFAULT_MAIL_SHOP: MailShop = { email: 'shop@vitrina.example' };

// ── Escaping and formatting ─────────────────────────────────────────────────────────────────────

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** Only web and mail links go into an href; anything else is a bug in the caller. */
function safeHref(url: string): string {
  if (!/^(https?:\/\/|mailto:)/i.test(url)) throw new TypeError(`Refusing to put "${url}" into a mail link`);
  return url;
}

const intlLocale = (locale: Locale) => (locale === 'ru' ? 'ru-RU' : 'en-US');

/** An amount in `currency` (roubles or dollars) as the reader's locale writes it. */
export function formatAmount(amount: number, currency: Currency, locale: Locale): string {
  const wholeRoubles = currency === 'RUB' && Number.isInteger(amount);
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: wholeRoubles ? 0 : 2,
    maximumFractionDigits: wholeRoubles ? 0 : 2,
  }).format(amount);
}

/**
 * The order's amounts as the shop showed them (ADR 0024): in dollars at the order's rate when it is
 * in dollars and a rate is known, otherwise in roubles; an English order charged in roubles (Robokassa,
 * ADR 0051) with a rate also gets its total in dollars as a guide.
 */
function orderAmounts(data: OrderMailData, locale: Locale) {
  const lines = data.items.map((item) => ({
    unit: roublesToKopecks(item.price),
    count: item.count,
    discount: roublesToKopecks(item.discount ?? 0),
  }));
  const delivery = roublesToKopecks(data.deliveryCost);
  const amounts =
    (data.currency === 'USD' ? amountsIn('USD', data.usdRate ?? 0, lines, delivery) : null) ??
    amountsIn('RUB', 0, lines, delivery);
  if (!amounts) throw new Error('rouble amounts need no rate');
  const format = (minor: number) => formatAmount(minorToMajor(minor), amounts.currency, locale);
  const undiscounted = amountsIn(
    amounts.currency,
    data.usdRate ?? 0,
    lines.map((line) => ({ ...line, discount: 0 })),
  );
  const discount = (undiscounted?.products ?? amounts.products) - amounts.products;
  const dollars =
    amounts.currency === 'RUB' && locale !== 'ru'
      ? amountsIn('USD', data.usdRate ?? 0, lines, delivery)
      : null;
  return {
    discount: discount > 0 ? `−${format(discount)}` : null,
    lines: amounts.lines.map(format),
    products: format(amounts.products),
    delivery: format(amounts.delivery),
    total: format(amounts.total),
    ...(dollars ? { guide: `≈ ${formatAmount(minorToMajor(dollars.total), 'USD', locale)}` } : {}),
  };
}

function hours(count: number, locale: Locale): string {
  const form = new Intl.PluralRules(intlLocale(locale)).select(count);
  const words: Record<Locale, Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }> = {
    ru: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
    en: { one: 'hour', other: 'hours' },
  };
  return `${count}\u00a0${words[locale][form] ?? words[locale].other}`;
}

const DELIVERY_NAMES: Record<Locale, Record<DeliveryMethod, string>> = {
  ru: {
    russian_post: 'Почта России',
    boxberry: 'Boxberry, пункт выдачи',
    'boxberry.courier': 'Boxberry, курьер',
  },
  en: {
    russian_post: 'Russian Post',
    boxberry: 'Boxberry pickup point',
    'boxberry.courier': 'Boxberry courier',
  },
};

/** Order numbers: «№ 42» in Russian, «#42» in English. */
const orderNumber = (orderId: number, locale: Locale) =>
  locale === 'ru' ? `№\u00a0${orderId}` : `#${orderId}`;

/** A visitor's name in a subject line: one line, not endless. */
function oneLine(value: string, limit = 60): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

// ── Blocks and the layout ───────────────────────────────────────────────────────────────────────

type Inline = string | { strong: string };

type Block =
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'button'; label: string; href: string }
  | { kind: 'details'; rows: [label: string, value: string][] }
  | {
      kind: 'items';
      headings: [name: string, count: string, amount: string];
      rows: { name: string; detail?: string; count: number; amount: string }[];
      totals: [label: string, value: string][];
    }
  | { kind: 'quote'; text: string }
  | { kind: 'note'; text: string };

interface Content {
  subject: string;
  blocks: Block[];
}

const paragraph = (...content: Inline[]): Block => ({ kind: 'paragraph', content });
const strong = (text: string | number): Inline => ({ strong: String(text) });

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#1f2933';
const MUTED = '#6b7280';
const RULE = '#e5e1da';
const ACCENT = '#7c3aed';

const inlineHtml = (content: Inline[]) =>
  content
    .map((part) =>
      typeof part === 'string' ? escapeHtml(part) : `<strong>${escapeHtml(part.strong)}</strong>`,
    )
    .join('');

const inlineText = (content: Inline[]) =>
  content.map((part) => (typeof part === 'string' ? part : part.strong)).join('');

const multiline = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px">${inlineHtml(block.content)}</p>`;
    case 'button': {
      const href = escapeHtml(safeHref(block.href));
      return (
        `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;padding:12px 24px;` +
        `background:${ACCENT};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">` +
        `${escapeHtml(block.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;color:${MUTED};word-break:break-all">` +
        `<a href="${href}" style="color:${MUTED}">${href}</a></p>`
      );
    }
    case 'details':
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse">` +
        block.rows
          .map(
            ([label, value]) =>
              `<tr><td style="padding:4px 16px 4px 0;color:${MUTED};vertical-align:top">${escapeHtml(label)}</td>` +
              `<td style="padding:4px 0">${multiline(value)}</td></tr>`,
          )
          .join('') +
        '</table>'
      );
    case 'items': {
      const cell = `padding:8px 0;border-bottom:1px solid ${RULE}`;
      const [nameHeading, countHeading, amountHeading] = block.headings.map(escapeHtml);
      return (
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse">` +
        `<tr><th align="left" style="${cell};color:${MUTED};font-weight:400">${nameHeading}</th>` +
        `<th align="center" style="${cell};color:${MUTED};font-weight:400">${countHeading}</th>` +
        `<th align="right" style="${cell};color:${MUTED};font-weight:400">${amountHeading}</th></tr>` +
        block.rows
          .map(
            (row) =>
              `<tr><td style="${cell}">${escapeHtml(row.name)}` +
              (row.detail
                ? `<br><span style="font-size:13px;color:${MUTED}">${escapeHtml(row.detail)}</span>`
                : '') +
              '</td>' +
              `<td align="center" style="${cell}">${escapeHtml(row.count)}</td>` +
              `<td align="right" style="${cell};white-space:nowrap">${escapeHtml(row.amount)}</td></tr>`,
          )
          .join('') +
        block.totals
          .map(
            ([label, value], index) =>
              `<tr${index === block.totals.length - 1 ? ' style="font-weight:700"' : ''}>` +
              `<td colspan="2" style="padding:6px 0">${escapeHtml(label)}</td>` +
              `<td align="right" style="padding:6px 0;white-space:nowrap">${escapeHtml(value)}</td></tr>`,
          )
          .join('') +
        '</table>'
      );
    }
    case 'quote':
      return (
        `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${RULE};` +
        `background:#faf8f5">${multiline(block.text)}</blockquote>`
      );
    case 'note':
      return `<p style="margin:16px 0 0;font-size:14px;color:${MUTED}">${escapeHtml(block.text)}</p>`;
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return inlineText(block.content);
    case 'button':
      return `${block.label}:\n${block.href}`;
    case 'details':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'items':
      return [
        ...block.rows.map(
          (row) => `- ${row.name}${row.detail ? ` (${row.detail})` : ''} × ${row.count}: ${row.amount}`,
        ),
        '',
        ...block.totals.map(([label, value]) => `${label}: ${value}`),
      ].join('\n');
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'note':
      return block.text;
  }
}

const ORDER_LABELS: Record<
  Locale,
  {
    headings: [string, string, string];
    discount: string;
    products: string;
    delivery: string;
    total: string;
    /** The total in dollars beside a rouble charge. */
    guide: string;
    method: string;
    address: string;
    sku: string;
  }
> = {
  ru: {
    headings: ['Товар', 'Кол-во', 'Сумма'],
    discount: 'Скидка по промокоду',
    products: 'Товары',
    delivery: 'Доставка',
    total: 'Итого',
    guide: 'Списано в рублях; в долларах примерно',
    method: 'Способ доставки',
    address: 'Адрес',
    sku: 'артикул',
  },
  en: {
    headings: ['Item', 'Qty', 'Amount'],
    discount: 'Promo code discount',
    products: 'Items',
    delivery: 'Delivery',
    total: 'Total',
    guide: 'Charged in roubles; in dollars, as a guide',
    method: 'Delivery method',
    address: 'Address',
    sku: 'SKU',
  },
};

/** The order's items with their amounts and totals, then its delivery method and address. */
function orderBlocks(data: OrderMailData, amounts: ReturnType<typeof orderAmounts>, locale: Locale): Block[] {
  const labels = ORDER_LABELS[locale];
  return [
    {
      kind: 'items',
      headings: labels.headings,
      rows: data.items.map((item, index) => ({
        name: item.name,
        ...(item.variant ? { detail: `${item.variant.options}, ${labels.sku} ${item.variant.sku}` } : {}),
        count: item.count,
        amount: amounts.lines[index] ?? '',
      })),
      totals: [
        ...(amounts.discount ? [[labels.discount, amounts.discount] as [string, string]] : []),
        [labels.products, amounts.products],
        [labels.delivery, amounts.delivery],
        [labels.total, amounts.total],
        ...(amounts.guide ? [[labels.guide, amounts.guide] as [string, string]] : []),
      ],
    },
    {
      kind: 'details',
      rows: [
        [labels.method, DELIVERY_NAMES[locale][data.deliveryMethod]],
        [labels.address, data.address],
      ],
    },
  ];
}

const SHOP_NAMES: Record<Locale, string> = { ru: 'Витрина', en: 'Vitrina' };
const FOOTERS: Record<Locale, string> = {
  ru: 'Есть вопросы? Напишите нам:',
  en: 'Questions? Write to us at',
};

/** The one layout of every mail: header with the shop name, the content, footer with the shop e-mail. */
function layout(content: Content, locale: Locale, shop: MailShop): RenderedMail {
  const shopName = SHOP_NAMES[locale];
  const shopEmail = escapeHtml(shop.email);
  const title = shop.url
    ? `<a href="${escapeHtml(safeHref(shop.url))}" style="color:#ffffff;text-decoration:none">${shopName}</a>`
    : shopName;
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f4f1ec">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f1ec">` +
    `<tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" ` +
    `style="max-width:600px;background:#ffffff;border-radius:8px;overflow:hidden;${FONT}">` +
    `<tr><td style="padding:20px 32px;background:${INK};color:#ffffff;font-size:22px;font-weight:700;letter-spacing:0.5px">${title}</td></tr>` +
    `<tr><td style="padding:32px;font-size:16px;line-height:1.5;color:${INK}">` +
    content.blocks.map(blockHtml).join('') +
    `</td></tr>` +
    `<tr><td style="padding:16px 32px 24px;border-top:1px solid ${RULE};font-size:13px;color:${MUTED}">` +
    `${escapeHtml(FOOTERS[locale])} <a href="mailto:${shopEmail}" style="color:${MUTED}">${shopEmail}</a>` +
    `</td></tr></table></td></tr></table></body></html>`;
  const footer = [`${shopName} · ${shop.email}`, ...(shop.url ? [shop.url] : [])].join('\n');
  const text = `${content.blocks.map(blockText).join('\n\n')}\n\n-- \n${footer}\n`;
  return { subject: content.subject, html, text };
}

// ── The templates ───────────────────────────────────────────────────────────────────────────────

type Compose<T extends MailTemplate> = (data: MailData[T]) => Content;

const templates: { [T in MailTemplate]: Record<Locale, Compose<T>> } = {
  'verify-email': {
    ru: ({ link }) => ({
      subject: 'Подтвердите адрес электронной почты',
      blocks: [
        paragraph('Здравствуйте!'),
        paragraph(
          'Спасибо за регистрацию в магазине «Витрина». Чтобы активировать учётную запись, подтвердите адрес электронной почты.',
        ),
        { kind: 'button', label: 'Подтвердить адрес', href: link },
        { kind: 'note', text: 'Если вы не регистрировались у нас, просто проигнорируйте это письмо.' },
      ],
    }),
    en: ({ link }) => ({
      subject: 'Confirm your e-mail address',
      blocks: [
        paragraph('Hello!'),
        paragraph(
          'Thank you for signing up at Vitrina. To activate your account, please confirm your e-mail address.',
        ),
        { kind: 'button', label: 'Confirm e-mail', href: link },
        { kind: 'note', text: 'If you did not sign up, simply ignore this message.' },
      ],
    }),
  },

  'reset-password': {
    ru: ({ link, expiresInHours }) => ({
      subject: 'Восстановление пароля',
      blocks: [
        paragraph('Здравствуйте!'),
        paragraph(
          'Мы получили запрос на смену пароля от вашей учётной записи. Чтобы задать новый пароль, перейдите по ссылке.',
        ),
        { kind: 'button', label: 'Задать новый пароль', href: link },
        paragraph('Ссылка действует ', strong(hours(expiresInHours, 'ru')), ' и сработает только один раз.'),
        {
          kind: 'note',
          text: 'Если вы не запрашивали смену пароля, просто проигнорируйте это письмо: ваш пароль останется прежним.',
        },
      ],
    }),
    en: ({ link, expiresInHours }) => ({
      subject: 'Reset your password',
      blocks: [
        paragraph('Hello!'),
        paragraph(
          'We received a request to reset the password of your account. To choose a new one, follow the link.',
        ),
        { kind: 'button', label: 'Choose a new password', href: link },
        paragraph('The link is valid for ', strong(hours(expiresInHours, 'en')), ' and works only once.'),
        {
          kind: 'note',
          text: 'If you did not ask to reset your password, ignore this message: your password stays the same.',
        },
      ],
    }),
  },

  'account-exists': {
    ru: ({ signInLink, restoreLink }) => ({
      subject: 'Попытка регистрации с вашим адресом',
      blocks: [
        paragraph('Здравствуйте!'),
        paragraph(
          'Кто-то попытался зарегистрироваться в магазине с вашим адресом, но учётная запись с ним уже есть. Войдите в неё или, если не помните пароль, задайте новый.',
        ),
        { kind: 'button', label: 'Войти', href: signInLink },
        paragraph('Забыли пароль? Задайте новый:'),
        { kind: 'button', label: 'Восстановить пароль', href: restoreLink },
        {
          kind: 'note',
          text: 'Если это были не вы, просто проигнорируйте это письмо: ваша учётная запись не изменилась.',
        },
      ],
    }),
    en: ({ signInLink, restoreLink }) => ({
      subject: 'Someone tried to register with your address',
      blocks: [
        paragraph('Hello!'),
        paragraph(
          'Someone tried to register at the shop with your address, but it already has an account. Sign in to it or, if you do not remember the password, choose a new one.',
        ),
        { kind: 'button', label: 'Sign in', href: signInLink },
        paragraph('Forgot the password? Choose a new one:'),
        { kind: 'button', label: 'Reset the password', href: restoreLink },
        {
          kind: 'note',
          text: 'If it was not you, ignore this message: your account has not changed.',
        },
      ],
    }),
  },

  feedback: {
    ru: ({ name, email, message }) => ({
      subject: `Сообщение с сайта от ${oneLine(name)}`,
      blocks: [
        paragraph('Новое сообщение из формы обратной связи.'),
        {
          kind: 'details',
          rows: [
            ['Имя', name],
            ['E-mail', email],
          ],
        },
        { kind: 'quote', text: message },
        { kind: 'note', text: 'Чтобы ответить посетителю, просто ответьте на это письмо.' },
      ],
    }),
    en: ({ name, email, message }) => ({
      subject: `Feedback from ${oneLine(name)}`,
      blocks: [
        paragraph('A new message from the feedback form.'),
        {
          kind: 'details',
          rows: [
            ['Name', name],
            ['E-mail', email],
          ],
        },
        { kind: 'quote', text: message },
        { kind: 'note', text: 'To answer the visitor, simply reply to this message.' },
      ],
    }),
  },

  'order-placed': {
    ru: (data) => {
      const amounts = orderAmounts(data, 'ru');
      return {
        subject: `Заказ ${orderNumber(data.orderId, 'ru')} оформлен`,
        blocks: [
          paragraph('Спасибо за заказ!'),
          paragraph(
            'Мы получили ваш заказ ',
            strong(orderNumber(data.orderId, 'ru')),
            ' и ждём оплату. Если оплата не поступит, заказ будет автоматически отменён.',
          ),
          ...orderBlocks(data, amounts, 'ru'),
          {
            kind: 'note',
            text: 'Заказы отправляем в течение недели после оплаты. Трек-номер пришлём отдельным письмом.',
          },
        ],
      };
    },
    en: (data) => {
      const amounts = orderAmounts(data, 'en');
      return {
        subject: `Order ${orderNumber(data.orderId, 'en')} placed`,
        blocks: [
          paragraph('Thank you for your order!'),
          paragraph(
            'We have received your order ',
            strong(orderNumber(data.orderId, 'en')),
            ' and are waiting for the payment. An order that is not paid in time is cancelled automatically.',
          ),
          ...orderBlocks(data, amounts, 'en'),
          {
            kind: 'note',
            text: 'We ship within a week of payment and will send the tracking number in a separate message.',
          },
        ],
      };
    },
  },

  'payment-received': {
    ru: (data) => {
      const amounts = orderAmounts(data, 'ru');
      return {
        subject: `Оплата заказа ${orderNumber(data.orderId, 'ru')} получена`,
        blocks: [
          paragraph(
            'Мы получили оплату заказа ',
            strong(orderNumber(data.orderId, 'ru')),
            ' на сумму ',
            strong(amounts.total),
            '. Спасибо!',
          ),
          ...orderBlocks(data, amounts, 'ru'),
          paragraph(strong('Что дальше')),
          paragraph(
            'Заказ передан в обработку: мы соберём и отправим его в течение недели.',
            data.deliveryMethod === 'russian_post' ? ' Почта России доставляет посылку до месяца.' : '',
          ),
          paragraph(
            'Когда посылка уйдёт, пришлём трек-номер; его также будет видно в истории заказов на сайте.',
          ),
        ],
      };
    },
    en: (data) => {
      const amounts = orderAmounts(data, 'en');
      return {
        subject: `Payment for order ${orderNumber(data.orderId, 'en')} received`,
        blocks: [
          paragraph(
            'We have received ',
            strong(amounts.total),
            ' for order ',
            strong(orderNumber(data.orderId, 'en')),
            '. Thank you!',
          ),
          ...orderBlocks(data, amounts, 'en'),
          paragraph(strong('What happens next')),
          paragraph(
            'Your order is now being processed: we will pack and ship it within a week.',
            data.deliveryMethod === 'russian_post'
              ? ' Russian Post then takes up to a month to deliver it.'
              : '',
          ),
          paragraph(
            'Once the parcel is on its way, we will send you its tracking number; you will also find it in your order history on the website.',
          ),
        ],
      };
    },
  },

  'new-paid-order': {
    ru: (data) => {
      const amounts = orderAmounts(data, 'ru');
      return {
        subject: `Новый оплаченный заказ ${orderNumber(data.orderId, 'ru')} на ${amounts.total}`,
        blocks: [
          paragraph(
            'Заказ ',
            strong(orderNumber(data.orderId, 'ru')),
            ' оплачен: его пора собрать и отправить.',
          ),
          {
            kind: 'details',
            rows: [
              ['Покупатель', data.customer],
              ['E-mail', data.email],
              ['Телефон', data.phone],
            ],
          },
          ...orderBlocks(data, amounts, 'ru'),
          ...(data.link ? [{ kind: 'button', label: 'Открыть заказ', href: data.link } as const] : []),
        ],
      };
    },
    en: (data) => {
      const amounts = orderAmounts(data, 'en');
      return {
        subject: `New paid order ${orderNumber(data.orderId, 'en')}: ${amounts.total}`,
        blocks: [
          paragraph('Order ', strong(orderNumber(data.orderId, 'en')), ' is paid: time to pack and ship it.'),
          {
            kind: 'details',
            rows: [
              ['Customer', data.customer],
              ['E-mail', data.email],
              ['Phone', data.phone],
            ],
          },
          ...orderBlocks(data, amounts, 'en'),
          ...(data.link ? [{ kind: 'button', label: 'Open the order', href: data.link } as const] : []),
        ],
      };
    },
  },

  'order-cancelled': {
    ru: ({ orderId, reason, note }) => ({
      subject: `Заказ ${orderNumber(orderId, 'ru')} отменён`,
      blocks:
        reason === 'expired'
          ? [
              paragraph(
                'Мы не получили оплату заказа ',
                strong(orderNumber(orderId, 'ru')),
                ' вовремя, поэтому он отменён, а товары вернулись в продажу.',
              ),
              paragraph('Если вы всё ещё хотите их купить, оформите, пожалуйста, новый заказ.'),
            ]
          : [
              paragraph('Заказ ', strong(orderNumber(orderId, 'ru')), ' отменён.'),
              ...(note
                ? [paragraph('Причина, которую указал магазин:'), { kind: 'quote', text: note } as const]
                : []),
              paragraph(
                'Если вы его не отменяли или у вас остались вопросы, напишите нам, и мы во всём разберёмся.',
              ),
            ],
    }),
    en: ({ orderId, reason, note }) => ({
      subject: `Order ${orderNumber(orderId, 'en')} cancelled`,
      blocks:
        reason === 'expired'
          ? [
              paragraph(
                'We did not receive the payment for order ',
                strong(orderNumber(orderId, 'en')),
                ' in time, so it has been cancelled and the items are back on sale.',
              ),
              paragraph('If you still want them, please place a new order.'),
            ]
          : [
              paragraph('Order ', strong(orderNumber(orderId, 'en')), ' has been cancelled.'),
              ...(note
                ? [paragraph('The reason the shop gave:'), { kind: 'quote', text: note } as const]
                : []),
              paragraph(
                'If you did not cancel it or have any questions, write to us and we will sort it out.',
              ),
            ],
    }),
  },

  'order-refunded': {
    ru: ({ orderId, amount, currency, full }) => ({
      subject: `Возврат денег по заказу ${orderNumber(orderId, 'ru')}`,
      blocks: [
        paragraph(
          'Мы вернули ',
          strong(formatAmount(amount, currency, 'ru')),
          full ? ' — всю оплату заказа ' : ' по заказу ',
          strong(orderNumber(orderId, 'ru')),
          full ? '. Заказ отменён.' : '.',
        ),
        paragraph(
          'Деньги придут тем же способом, которым вы платили; банку обычно нужно на это до десяти рабочих дней. Если остались вопросы, напишите нам.',
        ),
      ],
    }),
    en: ({ orderId, amount, currency, full }) => ({
      subject: `Refund for order ${orderNumber(orderId, 'en')}`,
      blocks: [
        paragraph(
          'We have refunded ',
          strong(formatAmount(amount, currency, 'en')),
          full ? ', the whole payment for order ' : ' for order ',
          strong(orderNumber(orderId, 'en')),
          full ? '. The order is cancelled.' : '.',
        ),
        paragraph(
          'The money goes back the way you paid; banks usually take up to ten working days. If you have any questions, write to us.',
        ),
      ],
    }),
  },

  'order-shipped': {
    ru: ({ orderId, trackCode, deliveryMethod }) => ({
      subject: `Заказ ${orderNumber(orderId, 'ru')} отправлен`,
      blocks: [
        paragraph('Ваш заказ ', strong(orderNumber(orderId, 'ru')), ' в пути!'),
        {
          kind: 'details',
          rows: [
            ['Способ доставки', DELIVERY_NAMES.ru[deliveryMethod]],
            ['Трек-номер', trackCode],
          ],
        },
        paragraph(
          deliveryMethod === 'russian_post'
            ? 'Отследить посылку можно по трек-номеру на сайте Почты России. Доставка обычно занимает до месяца.'
            : 'Отследить посылку можно по трек-номеру на сайте Boxberry.',
        ),
        { kind: 'button', label: 'Отследить посылку', href: trackingUrl(deliveryMethod, trackCode) },
      ],
    }),
    en: ({ orderId, trackCode, deliveryMethod }) => ({
      subject: `Order ${orderNumber(orderId, 'en')} shipped`,
      blocks: [
        paragraph('Your order ', strong(orderNumber(orderId, 'en')), ' is on its way!'),
        {
          kind: 'details',
          rows: [
            ['Delivery method', DELIVERY_NAMES.en[deliveryMethod]],
            ['Tracking number', trackCode],
          ],
        },
        paragraph(
          deliveryMethod === 'russian_post'
            ? 'You can track the parcel with this number on the Russian Post website. Delivery usually takes up to a month.'
            : 'You can track the parcel with this number on the Boxberry website.',
        ),
        { kind: 'button', label: 'Track the parcel', href: trackingUrl(deliveryMethod, trackCode) },
      ],
    }),
  },

  'parcel-waiting': {
    ru: ({ orderId, trackCode, deliveryMethod, place }) => ({
      subject: `Заказ ${orderNumber(orderId, 'ru')} ждёт вас`,
      blocks: [
        paragraph(
          'Посылка с заказом ',
          strong(orderNumber(orderId, 'ru')),
          deliveryMethod === 'russian_post'
            ? ' прибыла в почтовое отделение.'
            : ' прибыла в пункт выдачи Boxberry.',
        ),
        {
          kind: 'details',
          rows: [['Трек-номер', trackCode], ...(place ? ([['Где', place]] as Array<[string, string]>) : [])],
        },
        paragraph('Возьмите с собой паспорт. Посылка хранится ограниченное время.'),
        { kind: 'button', label: 'Отследить посылку', href: trackingUrl(deliveryMethod, trackCode) },
      ],
    }),
    en: ({ orderId, trackCode, deliveryMethod, place }) => ({
      subject: `Order ${orderNumber(orderId, 'en')} is waiting for you`,
      blocks: [
        paragraph(
          'The parcel with your order ',
          strong(orderNumber(orderId, 'en')),
          deliveryMethod === 'russian_post'
            ? ' has arrived at the post office.'
            : ' has arrived at the Boxberry pickup point.',
        ),
        {
          kind: 'details',
          rows: [
            ['Tracking number', trackCode],
            ...(place ? ([['Where', place]] as Array<[string, string]>) : []),
          ],
        },
        paragraph('Bring your passport. The parcel is kept for a limited time only.'),
        { kind: 'button', label: 'Track the parcel', href: trackingUrl(deliveryMethod, trackCode) },
      ],
    }),
  },

  'envisioned-available': {
    ru: ({ productName, link }) => ({
      // No quotes around the name: product names often carry their own «…».
      subject: `Можно заказать: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Хорошие новости! Товар из вашего списка желаний изготовлен, и его уже можно заказать:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'Перейти к товару', href: link },
        {
          kind: 'note',
          text: 'Вы получили это письмо, потому что добавили товар в список желаний. Тираж ограничен, так что не откладывайте.',
        },
      ],
    }),
    en: ({ productName, link }) => ({
      subject: `Now available: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Good news! An item from your wishlist has been made and can now be ordered:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'View the item', href: link },
        {
          kind: 'note',
          text: 'You are receiving this because you added the item to your wishlist. The edition is limited, so do not wait too long.',
        },
      ],
    }),
  },

  'back-in-stock': {
    ru: ({ productName, options, link }) => ({
      subject: `Снова в наличии: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Товар, которого вы ждали, снова в наличии:'),
        paragraph(strong(options ? `${productName} (${options})` : productName)),
        { kind: 'button', label: 'Перейти к товару', href: link },
        {
          kind: 'note',
          text: 'Вы получили это письмо, потому что попросили сообщить о поступлении. Мы пишем об этом один раз; тираж ограничен.',
        },
      ],
    }),
    en: ({ productName, options, link }) => ({
      subject: `Back in stock: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('The item you were waiting for is back in stock:'),
        paragraph(strong(options ? `${productName} (${options})` : productName)),
        { kind: 'button', label: 'View the item', href: link },
        {
          kind: 'note',
          text: 'You are receiving this because you asked to be told when it returns. We write about it once; the edition is limited.',
        },
      ],
    }),
  },

  'release-reminder': {
    ru: ({ productName, link }) => ({
      subject: `Уже в продаже: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('Товар, о котором вы просили напомнить, поступил в продажу:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'Перейти к товару', href: link },
        {
          kind: 'note',
          text: 'Вы получили это письмо, потому что нажали «Напомнить» на странице товара. Мы пишем об этом один раз; тираж ограничен.',
        },
      ],
    }),
    en: ({ productName, link }) => ({
      subject: `On sale now: ${oneLine(productName, 100)}`,
      blocks: [
        paragraph('The item you asked us to remind you of is on sale now:'),
        paragraph(strong(productName)),
        { kind: 'button', label: 'View the item', href: link },
        {
          kind: 'note',
          text: 'You are receiving this because you pressed "Remind me" on the item\'s page. We write about it once; the edition is limited.',
        },
      ],
    }),
  },

  'staff-invite': {
    ru: ({ role, link, expiresInHours }) => ({
      subject: 'Приглашение в управление магазином',
      blocks: [
        paragraph('Здравствуйте!'),
        paragraph(
          'Вас пригласили в управление магазином с ролью ',
          strong(role === 'admin' ? 'администратор' : 'менеджер'),
          '. Пока вы не примете приглашение, ничего не меняется. Откройте ссылку и войдите с этим адресом (или зарегистрируйтесь с ним, если у вас ещё нет учётной записи в магазине).',
        ),
        { kind: 'button', label: 'Принять приглашение', href: link },
        paragraph('Ссылка действует ', strong(hours(expiresInHours, 'ru')), ' и сработает только один раз.'),
        { kind: 'note', text: 'Если вы не ждали этого письма, просто проигнорируйте его.' },
      ],
    }),
    en: ({ role, link, expiresInHours }) => ({
      subject: 'You are invited to run the shop',
      blocks: [
        paragraph('Hello!'),
        paragraph(
          'You have been invited to the shop’s back office as ',
          strong(role === 'admin' ? 'an administrator' : 'a manager'),
          '. Nothing changes until you accept: open the link and sign in with this address (or register with it if you have no account at the shop yet).',
        ),
        { kind: 'button', label: 'Accept the invitation', href: link },
        paragraph('The link is valid for ', strong(hours(expiresInHours, 'en')), ' and works only once.'),
        { kind: 'note', text: 'If you did not expect this mail, simply ignore it.' },
      ],
    }),
  },
};

/** Subject, HTML and plain text of one mail in the reader's language. */
export function renderMail<T extends MailTemplate>(
  template: T,
  locale: Locale,
  data: MailData[T],
  shop: MailShop = DEFAULT_MAIL_SHOP,
): RenderedMail {
  const compose: Compose<T> = templates[template][locale];
  return layout(compose(data), locale, shop);
}
