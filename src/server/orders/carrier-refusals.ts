import type { ErrorKey } from '../../contract/error-messages.ts';
import { Invalid } from '../errors.ts';
import { BoxberryRefusal } from '../providers/boxberry.ts';
import type { OtpravkaRefusal } from '../providers/russian-post-shipments.ts';

/**
 * A carrier's refusal in the manager's language (issue 31 point 2, ADR 0087), as Robokassa's refund
 * refusals are (`orders/refunds.ts`): each reason a manager can act on has a message key in both
 * languages; any other reason is shown in the carrier's own words after a translated lead-in
 * (`shipment-refused-carrier-text`, its `{carrier_text}` filled from the error's details, which the
 * answer also carries as `carrier_text`).
 */

/**
 * Russian Post "Отправка" error codes, as its specification lists them
 * (otpravka.pochta.ru/specification#/enums-base-envelope-type, mirrored by restub/PochtaSdk
 * PochtaSdk/Otpravka/ErrorCode.cs).
 */
const OTPRAVKA_REFUSALS: Record<string, ErrorKey> = {
  EMPTY_INDEX_TO: 'shipment-refused-postcode',
  ILLEGAL_INDEX_TO: 'shipment-refused-postcode',
  EMPTY_PLACE_TO: 'shipment-refused-address',
  EMPTY_REGION_TO: 'shipment-refused-address',
  EMPTY_STREET_TO: 'shipment-refused-address',
  ILLEGAL_INITIALS: 'shipment-refused-recipient-name',
  ILLEGAL_RECIPIENT_NAME_INTL: 'shipment-refused-recipient-name',
  EMPTY_TELADDRESS: 'shipment-refused-phone',
  EMPTY_MASS: 'shipment-refused-weight',
  ILLEGAL_MASS: 'shipment-refused-weight',
  ILLEGAL_MASS_EXCESS: 'shipment-refused-weight',
  ILLEGAL_INSR_VALUE: 'shipment-refused-declared-value',
  INSR_VALUE_EXCEEDS_MAX: 'shipment-refused-declared-value',
  EMPTY_CUSTOMS_ENTRIES: 'shipment-refused-customs',
  CODE_1372: 'shipment-refused-route',
  UNAVAILABLE_MAIL_TYPE: 'shipment-refused-contract',
  ILLEGAL_MAIL_TYPE: 'shipment-refused-contract',
  ILLEGAL_MAIL_CATEGORY: 'shipment-refused-contract',
  RESTRICTED_MAIL_CATEGORY: 'shipment-refused-contract',
  EMPTY_POSTOFFICE_CODE: 'shipment-refused-post-office',
  ILLEGAL_POSTOFFICE_CODE: 'shipment-refused-post-office',
  NO_AVAILABLE_POSTOFFICES: 'shipment-refused-post-office',
};

/**
 * Boxberry's `err` texts, matched by their words: Boxberry publishes no list of them, so these are
 * the wordings its API is seen to use and the simulator answers (UNCONFIRMED).
 */
const BOXBERRY_REFUSALS: ReadonlyArray<readonly [RegExp, ErrorKey]> = [
  // The most particular first: these texts also name the postcode.
  [/курьерская доставка/i, 'shipment-refused-no-courier'],
  [/пункт(ы)? выдачи/i, 'shipment-refused-pickup-point'],
  [/индекс/i, 'shipment-refused-postcode'],
  [/(^|\s)вес/i, 'shipment-refused-weight'],
];

export function carrierRefusal(error: OtpravkaRefusal | BoxberryRefusal): Invalid {
  const carrierText = error.providerMessage ?? error.message;
  const keys = new Set<string>();
  let unknown = false;
  if (error instanceof BoxberryRefusal) {
    const key = BOXBERRY_REFUSALS.find(([pattern]) => pattern.test(carrierText))?.[1];
    if (key) keys.add(key);
    else unknown = true;
  } else {
    for (const problem of error.problems) {
      const key = OTPRAVKA_REFUSALS[problem.code];
      if (key) keys.add(key);
      else unknown = true;
    }
  }
  const messages = [...keys, ...(unknown || keys.size === 0 ? ['shipment-refused-carrier-text'] : [])];
  return new Invalid('shipment-refused', { carrier: messages }, 'shipment-refused', {
    carrier_text: carrierText,
  });
}
