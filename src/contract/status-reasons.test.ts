import { describe, expect, it } from 'vitest';
import { refundCancelReason, staffCancelReason, statusReason, statusReasonOf } from './status-reasons.ts';

describe('status reasons', () => {
  it('reads back what it stores, with the provider that took part', () => {
    expect(statusReasonOf(statusReason('paid', 'robokassa'))).toEqual({
      reason: 'paid',
      provider: 'robokassa',
    });
    expect(statusReasonOf(statusReason('expired'))).toEqual({ reason: 'expired', provider: null });
  });

  it('reads the English sentences older rows hold', () => {
    expect(statusReasonOf('paid via paypal')).toEqual({ reason: 'paid', provider: 'paypal' });
    expect(statusReasonOf('paid after cancel via robokassa, out of stock: refund needed')).toEqual({
      reason: 'paid-late-out-of-stock',
      provider: 'robokassa',
    });
    expect(statusReasonOf('replaced by a new order')).toEqual({ reason: 'replaced', provider: null });
    expect(statusReasonOf('refunded via robokassa')).toEqual({ reason: 'refunded', provider: 'robokassa' });
  });

  it("keeps a staff cancellation's own words, colons and all", () => {
    expect(statusReasonOf(staffCancelReason('Customer asked: wrong size'))).toEqual({
      reason: 'cancelled-by-staff',
      provider: null,
      note: 'Customer asked: wrong size',
    });
  });

  it("keeps the words staff gave for a full refund's cancellation after its provider", () => {
    expect(statusReasonOf(refundCancelReason('paypal', 'Sold out: sorry'))).toEqual({
      reason: 'refunded',
      provider: 'paypal',
      note: 'Sold out: sorry',
    });
  });

  it('leaves any other text to be shown as it is', () => {
    expect(statusReasonOf('called the customer')).toBeNull();
  });
});
