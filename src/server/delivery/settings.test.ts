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
      russianPost: { url: 'http://127.0.0.1:4100/sandbox/russian-post', fromZip: '101000' },
      boxberry: {
        url: 'http://127.0.0.1:4100/sandbox/boxberry/json.php',
        token: SANDBOX_BOXBERRY_TOKEN,
        targetStart: '010',
      },
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
    });
    expect(delivery).toEqual({
      russianPost: { url: 'https://tariff.pochta.ru', fromZip: '190000' },
      boxberry: { url: 'https://api.boxberry.ru/json.php', token: 'token-1', targetStart: '0102' },
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
});
