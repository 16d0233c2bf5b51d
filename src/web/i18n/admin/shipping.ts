import type { AdminTexts } from './texts.ts';

/** Back-office texts for packing, customs and shipments, each in English and Russian. */
export const shipping = {
  'admin-packing-slip': { en: 'Packing slip', ru: 'Упаковочный лист' },
  'admin-packing-slip-title': { en: 'Packing slip, order No. {id}', ru: 'Упаковочный лист, заказ № {id}' },
  'admin-print': { en: 'Print', ru: 'Печать' },
  'admin-ship-to': { en: 'Ship to', ru: 'Получатель' },
  'admin-order-of': { en: 'Order No. {id}, placed {date}', ru: 'Заказ № {id} от {date}' },
  'admin-units-total': { en: 'Units in total', ru: 'Всего штук' },
  'admin-packed': { en: 'Packed by', ru: 'Упаковал' },
  'admin-customs': { en: 'Customs declaration (CN23)', ru: 'Таможенная декларация (CN23)' },
  'admin-customs-incomplete': {
    en: 'This order goes abroad: it cannot be marked ready to ship until these items have their customs data.',
    ru: 'Заказ едет за границу: его нельзя отметить готовым к отправке, пока у этих товаров нет таможенных данных.',
  },
  'admin-customs-description': {
    en: 'Customs description (English)',
    ru: 'Описание для таможни (на английском)',
  },
  'admin-hs-code': { en: 'HS code', ru: 'Код ТН ВЭД' },
  'admin-origin-country': { en: 'Country of origin', ru: 'Страна происхождения' },
  'admin-net-weight': { en: 'Net weight, g', ru: 'Вес нетто, г' },
  'admin-customs-value': { en: 'Value', ru: 'Стоимость' },
  'admin-customs-value-roubles': { en: 'Value, ₽', ru: 'Стоимость, ₽' },
  'admin-customs-hint': {
    en: 'For parcels abroad (CN23). A variant may set its own in the variant table.',
    ru: 'Для посылок за границу (CN23). У варианта могут быть свои — в таблице вариантов.',
  },
  'admin-box-size': { en: 'Box', ru: 'Коробка' },
  'admin-box-hint': {
    en: 'Empty: the shop’s default parcel size.',
    ru: 'Пусто — размер посылки магазина по умолчанию.',
  },
  'admin-box-length': { en: 'Length, cm', ru: 'Длина, см' },
  'admin-box-width': { en: 'Width, cm', ru: 'Ширина, см' },
  'admin-box-height': { en: 'Height, cm', ru: 'Высота, см' },
  'admin-shipments': { en: 'Shipments', ru: 'Отправления' },
  'admin-shipments-empty': {
    en: 'No parcel has been handed to a carrier yet.',
    ru: 'Перевозчику ещё не передано ни одной посылки.',
  },
  'admin-shipment-new': { en: 'New parcel', ru: 'Новая посылка' },
  'admin-shipment-left': { en: 'left to ship: {count}', ru: 'осталось отправить: {count}' },
  'admin-shipment-create': { en: 'Create the {carrier} shipment', ru: 'Создать отправление: {carrier}' },
  'admin-shipment-done': {
    en: 'The carrier has the parcel; the customer gets its track code by e-mail.',
    ru: 'Посылка создана у перевозчика; покупатель получит трек-номер письмом.',
  },
  'admin-shipment-creating': { en: 'being created', ru: 'создаётся' },
  'admin-shipment-created': { en: 'created', ru: 'создано' },
  'admin-shipment-failed': {
    en: 'not created: the carrier was unavailable',
    ru: 'не создано: перевозчик был недоступен',
  },
  'admin-shipment-retry': { en: 'Try again', ru: 'Повторить' },
  'admin-shipment-label': { en: 'Label (PDF)', ru: 'Ярлык (PDF)' },
  'admin-shipment-cn23': { en: 'CN23 (PDF)', ru: 'CN23 (PDF)' },
  'admin-shipment-events': { en: 'Where the parcel is', ru: 'Где посылка' },
  'admin-stalled-shipments': { en: 'Stalled parcels', ru: 'Застрявшие посылки' },
  'admin-stalled-shipments-hint': {
    en: 'Parcels sent and not delivered whose last news is older than {days} days.',
    ru: 'Отправленные и не доставленные посылки, о которых нет новостей дольше {days} дн.',
  },
  'admin-stalled-shipments-empty': {
    en: 'Every parcel has moved recently.',
    ru: 'Все посылки недавно двигались.',
  },
  'admin-stalled-since': { en: 'Last news', ru: 'Последние новости' },
  'admin-carrier-russian-post': { en: 'Russian Post', ru: 'Почта России' },
  'admin-carrier-boxberry': { en: 'Boxberry', ru: 'Boxberry' },
} satisfies AdminTexts;
