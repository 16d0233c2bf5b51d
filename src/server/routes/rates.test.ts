import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, exchangeRates } from '../db/schema.ts';
import { moscowDay } from '../rates/service.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let cookies: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  cookies = await signedInAdmin(shop, 'rates-manager@example.com');
});
afterAll(() => shop?.close());

const call = (method: 'GET' | 'POST', payload?: unknown, locale = 'en') =>
  shop.app.inject({
    method,
    url: `/api/admin/exchange-rate?locale=${locale}`,
    cookies,
    payload: payload as object,
  });

describe('the back office dollar rate', () => {
  it('says dollars are withheld while there is no rate recent enough, and why', async () => {
    await shop.db
      .insert(exchangeRates)
      .values({ currency: 'USD', rate: '91.0000', source: 'cbr', rateDate: '2026-01-05' });
    const answer = await call('GET');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      success: true,
      withheld: true,
      maxAgeDays: 3,
      current: { rate: 91, source: 'cbr', rateDate: '2026-01-05', setBy: null },
    });
  });

  it("sets a manager's rate for today, recorded with who set it and audited; refuses a bad one in ru and en", async () => {
    const set = await call('POST', { rate: '95,1234' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      withheld: false,
      current: {
        rate: 95.1234,
        source: 'manual',
        rateDate: moscowDay(new Date()),
        setBy: 'rates-manager@example.com',
      },
    });
    const [entry] = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'exchange-rate'));
    expect(entry?.after).toEqual({ rate: 95.1234, source: 'manual', rateDate: moscowDay(new Date()) });

    const before = await shop.db.select().from(exchangeRates);
    const en = await call('POST', { rate: '-3' });
    expect(en.statusCode).toBe(422);
    expect(en.json().errors).toEqual({
      rate: ['Enter roubles per dollar above zero, with at most four decimals.'],
    });
    const ru = await call('POST', { rate: '95.12345' }, 'ru');
    expect(ru.statusCode).toBe(422);
    expect(ru.json().errors.rate).toEqual([
      'Введите число рублей за доллар больше нуля, не более четырёх знаков после запятой.',
    ]);
    expect(await shop.db.select().from(exchangeRates)).toEqual(before);
  });

  it('is for staff only', async () => {
    const anonymous = await shop.app.inject({
      method: 'POST',
      url: '/api/admin/exchange-rate',
      payload: { rate: 90 },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
