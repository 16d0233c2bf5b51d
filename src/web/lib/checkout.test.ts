import { describe, expect, it } from 'vitest';
import { cityWithoutKind, hasPickupPointPrefix } from '../../contract/delivery.ts';
import { translator } from '../i18n/messages.ts';
import {
  basketIsOrderable,
  daysText,
  orderStatusText,
  providerOfReturn,
  quoteKey,
  quoteUrl,
  refusalOf,
  splitPickupPointAddress,
} from './checkout.ts';

describe('the pickup-point address (spec section 4)', () => {
  it('splits a chosen point on ", " into postcode, city and the labelled rest', () => {
    expect(splitPickupPointAddress('620014, Екатеринбург г, Малышева ул, д.36', 'Pickup point: ')).toEqual({
      zip: '620014',
      city: 'Екатеринбург',
      address: 'Pickup point: Малышева ул, д.36',
    });
  });

  it('names the city without the kind of settlement Boxberry writes beside it', () => {
    expect(splitPickupPointAddress('125009, Москва г, Тверская ул, д.7', '').city).toBe('Москва');
    expect(splitPickupPointAddress('630559, Кольцово рп, Технопарковая ул, д.1', '').city).toBe('Кольцово');
    expect(cityWithoutKind('г. Москва')).toBe('Москва');
    expect(cityWithoutKind('г.Казань')).toBe('Казань');
    expect(cityWithoutKind(' Октябрьский  пгт ')).toBe('Октябрьский');
    expect(cityWithoutKind('Москва г.')).toBe('Москва');
    // Words that merely start like a kind stay: Сочи, Пушкин, Старый Оскол, Ростов-на-Дону.
    for (const city of ['Сочи', 'Пушкин', 'Старый Оскол', 'Ростов-на-Дону', 'Moscow'])
      expect(cityWithoutKind(city)).toBe(city);
    // A kind alone is not a city to empty.
    expect(cityWithoutKind('г')).toBe('г');
  });

  it('keeps an address with fewer parts whole', () => {
    expect(splitPickupPointAddress('Москва, Тверская 7', 'Пункт выдачи: ')).toEqual({
      address: 'Пункт выдачи: Москва, Тверская 7',
    });
  });

  it('recognises the label in either language', () => {
    expect(hasPickupPointPrefix('Пункт выдачи: Малышева ул, д.36')).toBe(true);
    expect(hasPickupPointPrefix('  Pickup point: Malysheva 36')).toBe(true);
    expect(hasPickupPointPrefix('Malysheva 36')).toBe(false);
    expect(hasPickupPointPrefix('')).toBe(false);
  });
});

describe('the delivery quote', () => {
  it('sends only the parameters that are filled in', () => {
    expect(quoteUrl('russian_post', 'RU', ' 630099 ')).toBe(
      '/order/shipping/cost?method=russian_post&country=RU&zip=630099',
    );
    expect(quoteUrl('boxberry', '', '')).toBe('/order/shipping/cost?method=boxberry');
  });

  it('names the inputs it is for, whatever their case and spaces', () => {
    expect(quoteKey('boxberry', 'ru', ' 125009')).toBe(quoteKey('boxberry', 'RU', '125009'));
    expect(quoteKey('boxberry', 'RU', '125009')).not.toBe(quoteKey('boxberry.courier', 'RU', '125009'));
  });

  it('says the delivery time in the visitor’s words', () => {
    expect(daysText(translator('en'), 'en', { min: 1, max: 1 })).toBe('1 day');
    expect(daysText(translator('en'), 'en', { min: 2, max: 4 })).toBe('2–4 days');
    expect(daysText(translator('ru'), 'ru', 1)).toBe('1 день');
    expect(daysText(translator('ru'), 'ru', { min: 2, max: 4 })).toBe('2–4 дня');
    expect(daysText(translator('ru'), 'ru', 5)).toBe('5 дней');
    expect(daysText(translator('ru'), 'ru', { min: 3, max: 21 })).toBe('3–21 день');
  });
});

describe('checkout rules', () => {
  it('needs a basket that is not empty with every item available', () => {
    const item = { 1: {} } as never;
    expect(basketIsOrderable({ productList: [1], products: item, unavailable: [] })).toBe(true);
    expect(basketIsOrderable({ productList: [], products: {}, unavailable: [] })).toBe(false);
    expect(basketIsOrderable({ productList: [1], products: item, unavailable: [1] })).toBe(false);
    expect(basketIsOrderable({ productList: [1, 2], products: item, unavailable: [] })).toBe(false);
  });

  it('names every order status, and an unknown one as such', () => {
    expect(translator('en')(orderStatusText(1))).toBe('in processing');
    expect(translator('ru')(orderStatusText(2))).toBe('отменён');
    expect(orderStatusText(9)).toBe('order-status-unknown');
  });

  it('tells the provider from the return parameters', () => {
    expect(providerOfReturn(new URLSearchParams('OutSum=10.00&InvId=5'))).toBe('robokassa');
    expect(providerOfReturn(new URLSearchParams('order=5'))).toBe('paypal');
  });

  it('takes refusals (4xx, an unreachable carrier) and leaves faults alone', () => {
    expect(refusalOf({ status: 422, message: 'zip-invalid' })).toEqual({
      status: 422,
      message: 'zip-invalid',
    });
    expect(refusalOf({ status: 409, message: 'x', intlError: 'basket-unavailable' })).toMatchObject({
      intlError: 'basket-unavailable',
    });
    expect(refusalOf({ status: 503, message: 'delivery-provider-down' })).not.toBeNull();
    expect(refusalOf({ status: 500, message: 'boom' })).toBeNull();
    expect(refusalOf(new Error('boom'))).toBeNull();
  });
});
