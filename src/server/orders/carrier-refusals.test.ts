import { describe, expect, it } from 'vitest';
import { translateError, translateErrors } from '../../contract/error-messages.ts';
import { BoxberryRefusal } from '../providers/boxberry.ts';
import { OtpravkaRefusal } from '../providers/russian-post-shipments.ts';
import { carrierRefusal } from './carrier-refusals.ts';

/**
 * A carrier's refusal as the manager reads it (ADR 0087). Russian Post's codes are those of
 * otpravka.pochta.ru/specification#/enums-base-envelope-type as restub/PochtaSdk
 * PochtaSdk/Otpravka/ErrorCode.cs lists them (ILLEGAL_RECIPIENT_NAME_INTL, EMPTY_TELADDRESS);
 * ACCESS_VIOLATION is listed there too but is nothing a manager can fix on the order. Boxberry's
 * texts are UNCONFIRMED (it publishes no list): the courier one is the simulator's wording.
 */

const shown = (error: ReturnType<typeof carrierRefusal>, locale: 'en' | 'ru') => ({
  message: translateError(locale, error.message, error.details),
  carrier: translateErrors(locale, error.errors, error.details).carrier,
});

describe('a carrier’s refusal in the manager’s language', () => {
  it('says each Russian Post reason it knows once, in English and Russian', () => {
    const refusal = carrierRefusal(
      new OtpravkaRefusal([
        { code: 'ILLEGAL_RECIPIENT_NAME_INTL', description: 'Недопустимое значение поля "Имя получателя"' },
        { code: 'ILLEGAL_INITIALS', description: 'ФИО некорректно' },
        { code: 'EMPTY_TELADDRESS', description: 'Телефон получателя является обязательным' },
      ]),
    );
    expect(shown(refusal, 'en')).toEqual({
      message: 'The carrier refused the shipment; nothing was changed.',
      carrier: [
        'The carrier refuses the recipient’s name (abroad it must be in Latin letters): correct it on the order.',
        'The carrier needs the recipient’s phone number for this parcel: add it to the order.',
      ],
    });
    expect(shown(refusal, 'ru').carrier).toEqual([
      'Перевозчик не принимает имя получателя (за границу — только латиницей): исправьте его в заказе.',
      'Для этого отправления перевозчику нужен телефон получателя: добавьте его в заказ.',
    ]);
  });

  it('falls back to the carrier’s own words after a translated lead-in', () => {
    const refusal = carrierRefusal(
      new OtpravkaRefusal([{ code: 'ACCESS_VIOLATION', description: 'Нарушение доступа' }]),
    );
    expect(shown(refusal, 'en').carrier).toEqual([
      'The carrier’s answer, in its own words: Нарушение доступа',
    ]);
    expect(shown(refusal, 'ru').carrier).toEqual(['Ответ перевозчика дословно: Нарушение доступа']);
    expect(refusal.details).toEqual({ carrier_text: 'Нарушение доступа' });
  });

  it('reads Boxberry’s texts by their words, and keeps an unknown one as it is', () => {
    const courier = carrierRefusal(
      new BoxberryRefusal('refused', 'Курьерская доставка по индексу 683000 не осуществляется'),
    );
    expect(shown(courier, 'en').carrier).toEqual([
      'Boxberry’s couriers do not serve the recipient’s postcode: offer the shopper a pickup point.',
    ]);
    const unknown = carrierRefusal(new BoxberryRefusal('refused', 'Не указаны товары (items)'));
    expect(shown(unknown, 'en').carrier).toEqual([
      'The carrier’s answer, in its own words: Не указаны товары (items)',
    ]);
  });
});
