import type { AdminTexts } from './texts.ts';

/** Back-office texts for the dashboard, each in English and Russian. */
export const dashboard = {
  'admin-to-ship-count': { en: 'to ship: {count}', ru: 'к отправке: {count}' },
  'admin-to-ship': { en: 'Paid orders to ship', ru: 'Оплаченные заказы к отправке' },
  'admin-unread-feedback': { en: 'Unread feedback', ru: 'Непрочитанные сообщения' },
  'admin-top-products': { en: 'Best sellers, last 30 days', ru: 'Лидеры продаж за 30 дней' },
  'admin-top-products-empty': {
    en: 'No paid orders in the last 30 days.',
    ru: 'За последние 30 дней оплаченных заказов нет.',
  },
  'admin-top-products-hint': {
    en: 'Units and revenue of orders paid in the last 30 days (refunded ones left out).',
    ru: 'Штуки и выручка заказов, оплаченных за последние 30 дней (без возвращённых).',
  },
  'admin-units': { en: 'Units', ru: 'Штук' },
  'admin-sales': { en: 'Sales', ru: 'Продажи' },
  'admin-period': { en: 'Period', ru: 'Период' },
  'admin-last-days': { en: '{days} days', ru: '{days} дней' },
  'admin-orders-total': { en: 'Orders', ru: 'Заказов' },
  'admin-revenue-total': { en: 'Paid revenue', ru: 'Оплачено' },
  'admin-orders-per-day': { en: 'Orders per day', ru: 'Заказы по дням' },
  'admin-revenue-per-day': { en: 'Paid revenue per day', ru: 'Оплаченная выручка по дням' },
  'admin-revenue': { en: 'Revenue', ru: 'Выручка' },
  'admin-sales-table': {
    en: 'Orders and paid revenue per day, last {days} days',
    ru: 'Заказы и оплаченная выручка по дням за {days} дней',
  },
  'admin-revenue-hint': {
    en: 'Revenue counts paid orders (processing, processed, ready, shipped, special), with delivery.',
    ru: 'Выручка — оплаченные заказы (в обработке, обработан, готов, отправлен, особый) вместе с доставкой.',
  },
  'admin-low-stock': { en: 'Running out', ru: 'Заканчиваются' },
  'admin-low-stock-empty': {
    en: 'Every visible product has more than three in stock.',
    ru: 'Всех видимых товаров на складе больше трёх.',
  },
} satisfies AdminTexts;
