import type { FastifyInstance, FastifyRequest } from 'fastify';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addToBasket } from '../cart/service.ts';
import { cancelledByShopper } from '../checkout/cancel.ts';
import { checkoutDraft, orderErrorStore, placedOrderStore } from '../checkout/draft.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { cancelOrder, createOrder } from '../orders/service.ts';
import { type BoxberrySettings, SANDBOX_BOXBERRY_TOKEN } from '../providers/boxberry.ts';
import { type BoxberrySimulator, createBoxberrySimulator } from '../providers/simulators/boxberry.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { boxberryWidgetKey, pickupPoints } from './checkout-actions.ts';

let providers: FastifyInstance;
let boxberry: BoxberrySimulator;
let settings: BoxberrySettings;

beforeAll(async () => {
  boxberry = createBoxberrySimulator();
  providers = Fastify();
  await providers.register(boxberry.plugin);
  const base = await providers.listen({ port: 0, host: '127.0.0.1' });
  settings = { url: `${base}/sandbox/boxberry/json.php`, token: SANDBOX_BOXBERRY_TOKEN, targetStart: '010' };
});
afterAll(() => providers?.close());
beforeEach(() => boxberry.setMode('normal'));

describe('pickup points for the built-in picker', () => {
  it('lists the points of a city written the way Boxberry writes it', async () => {
    const points = await pickupPoints(settings, { city: 'Москва г' });
    expect(points.length).toBeGreaterThan(1);
    for (const point of points) {
      // Boxberry's address splits into postcode, city and street (spec section 4).
      expect(point.address.split(', ').slice(0, 2)).toEqual([expect.stringMatching(/^\d{6}$/), 'Москва г']);
    }
  });

  it('lists the points of a city named in English, as the English interface is typed in', async () => {
    const inRussian = await pickupPoints(settings, { city: 'Москва' });
    expect(await pickupPoints(settings, { city: 'Moscow' })).toEqual(inRussian);
    const petersburg = await pickupPoints(settings, { city: 'Saint Petersburg' });
    expect(petersburg.length).toBeGreaterThan(0);
    expect(petersburg.every((point) => point.address.includes(', Санкт-Петербург г, '))).toBe(true);
    expect(await pickupPoints(settings, { city: 'Yekaterinburg' })).toEqual(
      await pickupPoints(settings, { city: 'Екатеринбург' }),
    );
  });

  it('falls back to the city of the postcode, nearest point first, when the name finds none', async () => {
    const points = await pickupPoints(settings, { city: 'Atlantis', zip: '191025' });
    expect(points[0]?.address).toMatch(/^191025, Санкт-Петербург г, /);
    expect(points.every((point) => point.address.includes('Санкт-Петербург г'))).toBe(true);
  });

  it('answers no points for a city and postcode Boxberry does not serve', async () => {
    expect(await pickupPoints(settings, { city: 'Atlantis', zip: '' })).toEqual([]);
    expect(await pickupPoints(settings, { city: '', zip: '683000' })).toEqual([]);
  });

  it('reports an unreachable Boxberry as delivery-provider-down', async () => {
    boxberry.setMode('down');
    await expect(pickupPoints(settings, { city: 'Москва' })).rejects.toMatchObject({
      status: 503,
      message: 'delivery-provider-down',
    });
  });

  it('opens the real widget with its own public key outside test mode, never with the API token', () => {
    const config = (testMode: boolean, widgetKey?: string) =>
      loadConfig({
        TEST_MODE: String(testMode),
        BOXBERRY_TOKEN: 'api-token-that-creates-parcels',
        BOXBERRY_WIDGET_KEY: widgetKey,
      });
    expect(boxberryWidgetKey(config(true, 'public-widget-key'))).toBeNull();
    expect(boxberryWidgetKey(config(false))).toBeNull();
    expect(boxberryWidgetKey(config(false, 'public-widget-key'))).toBe('public-widget-key');
  });
});

describe('the checkout session', () => {
  /** A request whose session is an object, as @fastify/session hands it over. */
  const requestWithSession = () => {
    let saves = 0;
    const session: Record<string, unknown> = {
      save: async () => {
        saves += 1;
      },
    };
    return { request: { session } as unknown as FastifyRequest, saves: () => saves };
  };

  it('keeps the shipping step’s draft until it is cleared', async () => {
    const { request, saves } = requestWithSession();
    const draft = checkoutDraft(request);
    expect(draft.get()).toBeNull();
    const saved = {
      deliveryMethod: 'russian_post' as const,
      recipient: {
        email: 'a@example.com',
        firstName: 'A',
        lastName: 'B',
        phone: '+7 900 000 00 00',
        country: 'RU',
        city: 'Kazan',
        zip: '420111',
        address: 'Baumana 1',
      },
      cost: 350_00,
      days: { min: 2, max: 4 },
    };
    await draft.set(saved);
    expect(draft.get()).toEqual(saved);
    await draft.clear();
    expect(draft.get()).toBeNull();
    expect(saves()).toBe(2);
  });

  it('shows an order error once', async () => {
    const { request } = requestWithSession();
    const errors = orderErrorStore(request);
    await errors.set({ intlError: 'invalid-currency-rate', error: 'invalid-currency-rate' });
    expect(errors.peek()).toMatchObject({ intlError: 'invalid-currency-rate' });
    expect(await errors.take()).toMatchObject({ intlError: 'invalid-currency-rate' });
    expect(await errors.take()).toBeNull();
  });

  it('says an order was just placed once, and only for that order', async () => {
    const { request } = requestWithSession();
    const placed = placedOrderStore(request);
    await placed.set(7);
    expect(await placed.take(8)).toBe(false);
    expect(await placed.take(7)).toBe(true);
    expect(await placed.take(7)).toBe(false);
  });
});

describe('a second visit to the cancel link', () => {
  let connection: DatabaseConnection;
  let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
  beforeAll(async () => {
    connection = await createTestDatabase();
    fixtures = await insertCatalogue(connection.db);
  });
  afterAll(() => connection?.close());

  async function orderOfNewUser() {
    const user = await newShopper(connection.db);
    await addToBasket(connection.db, { userId: user.id }, fixtures.id('wolf-shirt'));
    const input = orderInput({ email: user.email });
    const order = await createOrder(connection.db, user.id, input, {
      deliveryCost: 350_00,
      usdRate: 90,
      expiresMinutes: 60,
    });
    return { userId: user.id, orderId: order.id };
  }

  it('knows the order was cancelled by its owner on the cancel page', async () => {
    const { userId, orderId } = await orderOfNewUser();
    expect(await cancelledByShopper(connection.db, orderId, userId)).toBe(false);
    await cancelOrder(connection.db, orderId, { reason: 'cancelled', userId, returnToBasket: true });
    expect(await cancelledByShopper(connection.db, orderId, userId)).toBe(true);
    expect(await cancelledByShopper(connection.db, orderId, userId + 1000)).toBe(false);
  });

  it('does not count an order that expired', async () => {
    const { userId, orderId } = await orderOfNewUser();
    await cancelOrder(connection.db, orderId, { reason: 'expired', returnToBasket: false });
    expect(await cancelledByShopper(connection.db, orderId, userId)).toBe(false);
  });
});
