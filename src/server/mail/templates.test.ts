import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../contract/locale.ts';
import { formatMoney } from '../../contract/money.ts';
import { MAIL_TEMPLATES, type MailData } from './mail-data.ts';
import { escapeHtml } from './render.ts';
import { renderMail } from './templates.ts';

const link = 'https://shop.example/activate?token=abc123&email=anna%40example.com';

const samples: MailData = {
  'verify-email': { link },
  'reset-password': { link: 'https://shop.example/reset?token=t0k&email=a%40b.c', expiresInHours: 2 },
  'account-exists': { signInLink: 'https://shop.example/login', restoreLink: 'https://shop.example/restore' },
  feedback: { name: 'Анна', email: 'anna@example.com', message: 'Когда будут кружки?\nСпасибо!' },
  'order-placed': {
    orderId: 42,
    items: [
      { name: 'Кружка «Полночь»', count: 2, price: 900 },
      { name: 'Poster', count: 1, price: 1500.5 },
    ],
    productsCost: 3300.5,
    deliveryCost: 450,
    total: 3750.5,
    currency: 'RUB',
    deliveryMethod: 'russian_post',
    address: 'Россия, Москва, ул. Тверская, 1, кв. 2',
  },
  'payment-received': {
    orderId: 42,
    items: [{ name: 'Poster', count: 1, price: 1500.5 }],
    productsCost: 1500.5,
    deliveryCost: 450,
    total: 1950.5,
    currency: 'RUB',
    deliveryMethod: 'boxberry',
    address: '101000, Россия, Москва, Пункт выдачи: ул. Мясницкая, 1',
    pickupPointCode: '10027',
  },
  'new-paid-order': {
    orderId: 42,
    items: [{ name: 'Худи «Страж»', variant: { options: 'Размер: L', sku: 'GH-L' }, count: 2, price: 4500 }],
    productsCost: 9000,
    deliveryCost: 450,
    total: 9450,
    currency: 'RUB',
    deliveryMethod: 'russian_post',
    address: '101000, Россия, Москва, ул. Тверская, 1',
    customer: 'Анна Петрова',
    email: 'anna@example.com',
    phone: '+7 900 000-00-00',
    link: 'https://shop.example/admin/orders/42',
  },
  'order-cancelled': { orderId: 42, reason: 'expired' },
  'order-refunded': { orderId: 42, amount: 1500.5, currency: 'RUB', full: false },
  'order-shipped': { orderId: 42, trackCode: 'RA123456789RU', deliveryMethod: 'russian_post' },
  'parcel-waiting': {
    orderId: 42,
    trackCode: 'RA123456789RU',
    deliveryMethod: 'russian_post',
    place: '420111 Казань',
  },
  'envisioned-available': { productName: 'Фигурка «Страж»', link: 'https://shop.example/product/guardian' },
  'back-in-stock': {
    productName: 'Худи «Страж»',
    options: 'Размер: L',
    link: 'https://shop.example/product/guardian-hoodie?variant=7',
  },
  'release-reminder': { productName: 'Фигурка «Страж»', link: 'https://shop.example/product/guardian' },
  'staff-invite': {
    role: 'manager',
    link: 'https://shop.example/staff-invitation?token=t0k',
    expiresInHours: 72,
  },
};

const spaces = (value: string) => value.replace(/[\u00a0\u202f]/g, ' ');

describe('mail templates', () => {
  for (const template of MAIL_TEMPLATES) {
    for (const locale of LOCALES) {
      it(`renders ${template} in ${locale} with a subject, an HTML part and a text part`, () => {
        const mail = renderMail(template, locale, samples[template]);
        expect(mail.subject.trim()).not.toBe('');
        expect(mail.subject).not.toMatch(/[\r\n]/);
        expect(mail.html).toContain(`<html lang="${locale}">`);
        expect(mail.html).toContain(locale === 'ru' ? 'Витрина' : 'Vitrina');
        expect(mail.html).toContain('mailto:shop@vitrina.example');
        expect(mail.text.trim()).not.toBe('');
        expect(mail.text).toContain('shop@vitrina.example');
        expect(mail.text).not.toMatch(/<[a-z]/i);
      });
    }
  }

  it('writes Russian mails in Russian and English mails in English', () => {
    expect(renderMail('verify-email', 'ru', samples['verify-email']).subject).toBe(
      'Подтвердите адрес электронной почты',
    );
    expect(renderMail('verify-email', 'en', samples['verify-email']).subject).toBe(
      'Confirm your e-mail address',
    );
    expect(renderMail('order-shipped', 'ru', samples['order-shipped']).subject).toBe(
      'Заказ №\u00a042 отправлен',
    );
    expect(renderMail('order-shipped', 'en', samples['order-shipped']).subject).toBe('Order #42 shipped');
  });

  it('names the pickup point a Boxberry parcel goes to beside its address, and no point for other methods', () => {
    for (const [locale, label] of [
      ['ru', 'Код пункта выдачи'],
      ['en', 'Pickup point code'],
    ] as const) {
      const mail = renderMail('payment-received', locale, samples['payment-received']);
      expect(mail.text).toMatch(new RegExp(`${label}\\W+10027`));
      expect(mail.html).toContain('10027');
      expect(renderMail('order-placed', locale, samples['order-placed']).text).not.toContain(label);
    }
  });

  it('puts the link into both parts, escaped in the HTML', () => {
    for (const locale of LOCALES) {
      for (const template of ['verify-email', 'reset-password', 'envisioned-available'] as const) {
        const data = samples[template];
        const mail = renderMail(template, locale, data);
        expect(mail.text).toContain(data.link);
        expect(mail.html).toContain(`href="${escapeHtml(data.link)}"`);
      }
    }
    expect(renderMail('verify-email', 'en', { link }).html).toContain(
      'token=abc123&amp;email=anna%40example.com',
    );
  });

  it('escapes a visitor’s script in the feedback name and message', () => {
    const mail = renderMail('feedback', 'ru', {
      name: '<script>alert("name")</script>',
      email: 'evil@example.com"><img src=x onerror=alert(1)>',
      message: 'Hi <script>alert(1)</script> & bye',
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
    expect(mail.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; bye');
    // The plain-text part shows the message as written.
    expect(mail.text).toContain('> Hi <script>alert(1)</script> & bye');
  });

  it('keeps the feedback message’s line breaks and a one-line subject', () => {
    const mail = renderMail('feedback', 'en', {
      name: 'Anna\r\nBcc: x@y',
      email: 'a@b.c',
      message: 'one\ntwo',
    });
    expect(mail.subject).toBe('Feedback from Anna Bcc: x@y');
    expect(mail.html).toContain('one<br>two');
    expect(mail.text).toContain('> one\n> two');
  });

  it('shows order amounts in roubles, or in dollars at the order’s rate', () => {
    const ru = renderMail('order-placed', 'ru', samples['order-placed']);
    expect(spaces(ru.text)).toContain('Кружка «Полночь» × 2: 1 800 ₽');
    expect(spaces(ru.text)).toContain('Итого: 3 750,50 ₽');
    expect(ru.text).toContain('Почта России');
    expect(ru.text).toContain('Тверская');

    const en = renderMail('order-placed', 'en', { ...samples['order-placed'], currency: 'USD', usdRate: 90 });
    expect(en.text).toContain('Poster × 1: $16.67');
    expect(en.text).toContain('Delivery: $5.00');
    expect(en.text).toContain('Total: $41.67');
    expect(en.text).toContain('Russian Post');

    expect(spaces(formatMoney(2500_00, 'RUB', 'ru'))).toBe('2 500 ₽');
    expect(formatMoney(27_50, 'USD', 'en')).toBe('$27.50');
  });

  it('sums up the paid order and what happens next in the payment mail, in each language', () => {
    const ru = renderMail('payment-received', 'ru', samples['payment-received']);
    expect(spaces(ru.text)).toContain('на сумму 1 950,50 ₽');
    expect(spaces(ru.text)).toContain('Poster × 1: 1 500,50 ₽');
    expect(spaces(ru.text)).toContain('Доставка: 450 ₽');
    expect(ru.text).toContain('Способ доставки: Boxberry, пункт выдачи');
    expect(ru.text).toContain('Адрес: 101000, Россия, Москва, Пункт выдачи: ул. Мясницкая, 1');
    expect(ru.text).toContain('Что дальше');
    expect(ru.text).toContain('в течение недели');
    expect(ru.text).not.toContain('Почта России');

    const en = renderMail('payment-received', 'en', {
      ...samples['payment-received'],
      deliveryMethod: 'russian_post',
      currency: 'USD',
      usdRate: 90,
    });
    expect(en.subject).toBe('Payment for order #42 received');
    expect(en.text).toContain('We have received $21.67 for order #42');
    expect(en.text).toContain('Poster × 1: $16.67');
    expect(en.text).toContain('Total: $21.67');
    expect(en.text).toContain('Delivery method: Russian Post');
    expect(en.text).toContain('What happens next');
    expect(en.text).toContain('Russian Post then takes up to a month');
    expect(en.html).toContain('Address</td>');
  });

  it('tells an English shopper charged in roubles (Robokassa) the roubles, with dollars as a guide', () => {
    const en = renderMail('order-placed', 'en', { ...samples['order-placed'], usdRate: 90 });
    expect(spaces(en.text)).toContain(`Total: ${spaces(formatMoney(3750_50, 'RUB', 'en'))}`);
    expect(en.text).not.toContain('Total: $');
    expect(en.text).toContain('Charged in roubles; in dollars, as a guide: ≈ $41.67');
    const ru = renderMail('order-placed', 'ru', { ...samples['order-placed'], usdRate: 90 });
    expect(ru.text).not.toContain('≈');
  });

  it('shows dollar lines as unit × count that add up to the items and the total the provider charges', () => {
    const en = renderMail('order-placed', 'en', {
      ...samples['order-placed'],
      items: [
        { name: 'Pin', count: 1, price: 384 },
        { name: 'Mug', count: 2, price: 1269 },
      ],
      productsCost: 1653,
      deliveryCost: 300,
      total: 1953,
      currency: 'USD',
      usdRate: 91,
    });
    expect(en.text).toContain('Pin × 1: $4.22');
    expect(en.text).toContain('Mug × 2: $27.90');
    expect(en.text).toContain('Items: $32.12');
    expect(en.text).toContain('Delivery: $3.30');
    expect(en.text).toContain('Total: $35.42');
  });

  it('says how long a reset link lives with the right Russian plural', () => {
    const text = (hours: number) =>
      spaces(renderMail('reset-password', 'ru', { link, expiresInHours: hours }).text);
    expect(text(1)).toContain('1 час ');
    expect(text(2)).toContain('2 часа ');
    expect(text(24)).toContain('24 часа ');
    expect(text(48)).toContain('48 часов ');
    expect(spaces(renderMail('reset-password', 'en', { link, expiresInHours: 1 }).text)).toContain('1 hour ');
  });

  it('explains why an order was cancelled', () => {
    expect(renderMail('order-cancelled', 'en', { orderId: 7, reason: 'expired' }).text).toContain(
      'did not receive the payment',
    );
    expect(renderMail('order-cancelled', 'en', { orderId: 7, reason: 'cancelled' }).text).toContain(
      'has been cancelled',
    );
    // Staff's own words, in either language's mail, escaped in its HTML part.
    const note = 'Нет размера <M> & цвета';
    const ru = renderMail('order-cancelled', 'ru', { orderId: 7, reason: 'cancelled', note });
    expect(ru.text).toContain('Причина, которую указал магазин:');
    expect(ru.text).toContain(note);
    expect(ru.html).toContain('Нет размера &lt;M&gt; &amp; цвета');
    const en = renderMail('order-cancelled', 'en', { orderId: 7, reason: 'cancelled', note: 'Sold out' });
    expect(en.text).toContain('The reason the shop gave:');
    expect(en.text).toContain('Sold out');
    expect(renderMail('order-cancelled', 'en', { orderId: 7, reason: 'cancelled' }).text).not.toContain(
      'reason',
    );
  });

  it("quotes staff's words of why a full refund cancelled the order, as the cancellation mail does", () => {
    const refunded = { orderId: 7, amount: 1500, currency: 'RUB', full: true } as const;
    const ru = renderMail('order-refunded', 'ru', { ...refunded, note: 'Брак <шва>' });
    expect(ru.text).toContain('Заказ отменён.');
    expect(ru.text).toContain('Причина, которую указал магазин:');
    expect(ru.text).toContain('Брак <шва>');
    expect(ru.html).toContain('Брак &lt;шва&gt;');
    const en = renderMail('order-refunded', 'en', { ...refunded, note: 'Damaged seam' });
    expect(en.text).toContain('The reason the shop gave:');
    expect(en.text).toContain('Damaged seam');
    expect(renderMail('order-refunded', 'en', refunded).text).not.toContain('reason');
  });

  it('refuses a link that is not a web address', () => {
    expect(() => renderMail('verify-email', 'en', { link: 'javascript:alert(1)' })).toThrow(TypeError);
  });

  it('shows the configured shop address and site in the header and footer', () => {
    const mail = renderMail(
      'verify-email',
      'en',
      { link },
      { email: 'hello@shop.example', url: 'https://shop.example' },
    );
    expect(mail.html).toContain('mailto:hello@shop.example');
    expect(mail.html).toContain('href="https://shop.example"');
    expect(mail.text).toContain('Vitrina · hello@shop.example\nhttps://shop.example');
  });
});
