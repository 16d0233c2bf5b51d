import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

describe('payment provider configuration', () => {
  it('points both providers at the local simulators in test mode, with sandbox credentials', () => {
    const { robokassa, paypal } = loadConfig({ PORT: '4000', PUBLIC_URL: 'http://shop.test:8080/' }).payments;
    expect(robokassa).toEqual({
      merchantLogin: 'vitrina-test',
      password1: expect.any(String),
      password2: expect.any(String),
      password3: expect.any(String),
      hashAlgorithm: 'md5',
      paymentUrl: 'http://shop.test:8080/sandbox/robokassa',
      opStateUrl: 'http://127.0.0.1:4000/sandbox/robokassa/opstate',
      refundCreateUrl: 'http://127.0.0.1:4000/sandbox/robokassa/refund/create',
      refundStateUrl: 'http://127.0.0.1:4000/sandbox/robokassa/refund/state',
      isTest: true,
      secondReceiptUrl: 'http://127.0.0.1:4000/sandbox/robokassa/receipt/attach',
    });
    expect(new Set([robokassa.password1, robokassa.password2, robokassa.password3]).size).toBe(3);
    expect(paypal).toEqual({
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      webhookId: expect.any(String),
      apiUrl: 'http://127.0.0.1:4000/sandbox/paypal',
    });
  });

  it('uses the real endpoints outside test mode', () => {
    const { robokassa, paypal } = loadConfig({ TEST_MODE: 'false' }).payments;
    expect(robokassa.paymentUrl).toBe('https://auth.robokassa.ru/Merchant/Index.aspx');
    expect(robokassa.opStateUrl).toBe(
      'https://auth.robokassa.ru/Merchant/WebService/Service.asmx/OpStateExt',
    );
    expect(robokassa.isTest).toBe(false);
    expect(robokassa.refundCreateUrl).toBe('https://services.robokassa.ru/RefundService/Refund/Create');
    expect(robokassa.refundStateUrl).toBe('https://services.robokassa.ru/RefundService/Refund/GetState');
    // robokassa/sdk-php src/Service/ReceiptService.php SECOND_CHECK_URL.
    expect(robokassa.secondReceiptUrl).toBe('https://ws.roboxchange.com/RoboFiscal/Receipt/Attach');
    // PayPal's live REST API (https://developer.paypal.com/api/rest/requests/).
    expect(paypal.apiUrl).toBe('https://api-m.paypal.com');
  });

  it('sends receipts by default as prepayment with VAT none, and takes the receipt settings', () => {
    expect(loadConfig({}).receipts).toEqual({ enabled: true, sno: undefined, vat: 'none', prepayment: true });
    expect(
      loadConfig({
        RECEIPTS: 'false',
        RECEIPT_SNO: 'usn_income',
        RECEIPT_VAT: 'vat22',
        RECEIPT_PREPAYMENT: '0',
      }).receipts,
    ).toEqual({ enabled: false, sno: 'usn_income', vat: 'vat22', prepayment: false });
    expect(() => loadConfig({ RECEIPT_VAT: 'vat18' })).toThrow(/RECEIPT_VAT/);
  });

  it('takes credentials, the hash algorithm and URLs from the environment', () => {
    const { robokassa, paypal } = loadConfig({
      TEST_MODE: 'false',
      ROBOKASSA_LOGIN: 'shop',
      ROBOKASSA_PASSWORD1: 'one',
      ROBOKASSA_PASSWORD2: 'two',
      ROBOKASSA_HASH: 'sha256',
      ROBOKASSA_IS_TEST: '1',
      PAYPAL_CLIENT_ID: 'AaBb-client',
      PAYPAL_CLIENT_SECRET: 'EeFf-secret',
      PAYPAL_WEBHOOK_ID: '1JE4291016473214C',
      PAYPAL_API_URL: 'https://api-m.sandbox.paypal.com/',
    }).payments;
    expect(robokassa).toMatchObject({
      merchantLogin: 'shop',
      password1: 'one',
      password2: 'two',
      hashAlgorithm: 'sha256',
      isTest: true,
    });
    expect(paypal).toEqual({
      clientId: 'AaBb-client',
      clientSecret: 'EeFf-secret',
      webhookId: '1JE4291016473214C',
      apiUrl: 'https://api-m.sandbox.paypal.com',
    });
  });

  it('explains an unknown hash algorithm', () => {
    expect(() => loadConfig({ ROBOKASSA_HASH: 'crc32' })).toThrow(/ROBOKASSA_HASH/);
  });

  it('refuses to take real payments in production without credentials, naming each', () => {
    const production = {
      NODE_ENV: 'production',
      TEST_MODE: 'false',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://shop.example',
    };
    let problems: string[] = [];
    try {
      loadConfig(production);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    for (const name of [
      'ROBOKASSA_LOGIN',
      'ROBOKASSA_PASSWORD1',
      'ROBOKASSA_PASSWORD2',
      'ROBOKASSA_PASSWORD3',
      'PAYPAL_CLIENT_ID',
      'PAYPAL_CLIENT_SECRET',
      'PAYPAL_WEBHOOK_ID',
    ]) {
      expect(problems).toContain(`${name} is required in production outside test mode`);
    }
    // Other providers may have requirements of their own; none of them is about payments.
    let remaining: string[] = [];
    try {
      loadConfig({
        ...production,
        ROBOKASSA_LOGIN: 'shop',
        ROBOKASSA_PASSWORD1: 'one',
        ROBOKASSA_PASSWORD2: 'two',
        ROBOKASSA_PASSWORD3: 'three',
        PAYPAL_CLIENT_ID: 'client',
        PAYPAL_CLIENT_SECRET: 'secret',
        PAYPAL_WEBHOOK_ID: 'webhook',
      });
    } catch (error) {
      remaining = (error as ConfigError).problems;
    }
    expect(remaining.filter((problem) => /ROBOKASSA|PAYPAL/.test(problem))).toEqual([]);
  });
});
