import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { SANDBOX_BOXBERRY_TOKEN } from '../providers/boxberry.ts';

const production = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'x'.repeat(40),
  PUBLIC_URL: 'https://shop.example',
};

describe('delivery configuration', () => {
  it('points at the local simulators in test mode, with the sandbox token', () => {
    expect(loadConfig({ PORT: '4100' }).delivery).toEqual({
      russianPost: {
        url: 'http://127.0.0.1:4100/sandbox/russian-post',
        fromZip: '101000',
        packs: [
          { code: 10, box: { length: 26, width: 17, height: 8 } },
          { code: 20, box: { length: 30, width: 20, height: 15 } },
          { code: 30, box: { length: 40, width: 27, height: 18 } },
          { code: 40, box: { length: 53, width: 36, height: 22 } },
        ],
      },
      boxberry: {
        url: 'http://127.0.0.1:4100/sandbox/boxberry/json.php',
        token: SANDBOX_BOXBERRY_TOKEN,
        targetStart: '010',
      },
      parcel: { defaultBox: { length: 30, width: 20, height: 15 } },
    });
    // A real token set for later does not reach the simulator, which would refuse it.
    expect(loadConfig({ BOXBERRY_TOKEN: 'real-token' }).delivery.boxberry.token).toBe(SANDBOX_BOXBERRY_TOKEN);
  });

  it('uses the real services outside test mode', () => {
    const { delivery } = loadConfig({
      TEST_MODE: 'false',
      BOXBERRY_TOKEN: 'token-1',
      RUSSIAN_POST_FROM_ZIP: '190000',
      BOXBERRY_TARGETSTART: '0102',
      PARCEL_DEFAULT_SIZE: '25x25x10',
      RUSSIAN_POST_PACKS: '20:30x20x15',
    });
    expect(delivery).toEqual({
      russianPost: {
        url: 'https://tariff.pochta.ru',
        fromZip: '190000',
        packs: [{ code: 20, box: { length: 30, width: 20, height: 15 } }],
      },
      boxberry: { url: 'https://api.boxberry.ru/json.php', token: 'token-1', targetStart: '0102' },
      parcel: { defaultBox: { length: 25, width: 25, height: 10 } },
    });
  });

  it('refuses to start in production outside test mode without a Boxberry token', () => {
    try {
      loadConfig({ ...production, TEST_MODE: 'false' });
      expect.unreachable('loadConfig should refuse');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toContain(
        'BOXBERRY_TOKEN is required in production outside test mode',
      );
    }
    expect(() => loadConfig({ ...production, TEST_MODE: 'true' })).not.toThrow();
  });

  it('explains a malformed sender postcode', () => {
    expect(() => loadConfig({ RUSSIAN_POST_FROM_ZIP: '10100' })).toThrow(/RUSSIAN_POST_FROM_ZIP/);
  });

  it('explains a malformed default parcel size or pack list', () => {
    expect(() => loadConfig({ PARCEL_DEFAULT_SIZE: '30x20' })).toThrow(/PARCEL_DEFAULT_SIZE/);
    expect(() => loadConfig({ RUSSIAN_POST_PACKS: 'S:30x20x15' })).toThrow(/RUSSIAN_POST_PACKS/);
  });
});
