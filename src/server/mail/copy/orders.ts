import { trackingUrl } from '../../../contract/delivery.ts';
import type { Locale } from '../../../contract/locale.ts';
import { formatMoney, majorToMinor } from '../../../contract/money.ts';
import type { Templates } from '../mail-data.ts';
import { orderAmounts, orderBlocks } from '../order-summary.ts';
import { paragraph, strong } from '../render.ts';
import { DELIVERY_NAMES, orderNumber } from '../wording.ts';

/**
 * Staff's own words of why they cancelled an order (a status edit or a refund of all that was
 * left), quoted as they wrote them in the cancellation or refund mail; nothing without them.
 */
const reasonGiven = (note: string | undefined, locale: Locale) =>
  note
    ? [
        paragraph(locale === 'ru' ? 'Причина, которую указал магазин:' : 'The reason the shop gave:'),
        { kind: 'quote', text: note } as const,
      ]
    : [];

/** Mails along an order's way: placed, paid, cancelled, refunded, shipped, waiting at the pickup point. */
export const orderMails: Templates<
  | 'order-placed'
  | 'payment-received'
  | 'new-paid-order'
  | 'order-cancelled'
  | 'order-refunded'
  | 'order-shipped'
  | 'parcel-waiting'
> = {
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
              ...reasonGiven(note, 'ru'),
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
              ...reasonGiven(note, 'en'),
              paragraph(
                'If you did not cancel it or have any questions, write to us and we will sort it out.',
              ),
            ],
    }),
  },

  'order-refunded': {
    ru: ({ orderId, amount, currency, full, note }) => ({
      subject: `Возврат денег по заказу ${orderNumber(orderId, 'ru')}`,
      blocks: [
        paragraph(
          'Мы вернули ',
          strong(formatMoney(majorToMinor(amount), currency, 'ru')),
          full ? ' — всю оплату заказа ' : ' по заказу ',
          strong(orderNumber(orderId, 'ru')),
          full ? '. Заказ отменён.' : '.',
        ),
        ...reasonGiven(note, 'ru'),
        paragraph(
          'Деньги придут тем же способом, которым вы платили; банку обычно нужно на это до десяти рабочих дней. Если остались вопросы, напишите нам.',
        ),
      ],
    }),
    en: ({ orderId, amount, currency, full, note }) => ({
      subject: `Refund for order ${orderNumber(orderId, 'en')}`,
      blocks: [
        paragraph(
          'We have refunded ',
          strong(formatMoney(majorToMinor(amount), currency, 'en')),
          full ? ', the whole payment for order ' : ' for order ',
          strong(orderNumber(orderId, 'en')),
          full ? '. The order is cancelled.' : '.',
        ),
        ...reasonGiven(note, 'en'),
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
};
