/**
 * Orders placed in the background of a load test (the bench's drop rows, ADR 0042): a signed-in
 * shopper puts one unit of a product in the basket and places an order, `perSecond` times a
 * second. Each order replaces the shopper's previous unpaid one (ADR 0021), so the product's stock
 * moves twice per order and never runs out.
 */
export interface OrderPlacer {
  /** Stops placing; answers how many orders were placed and how many attempts failed. */
  stop(): Promise<{ placed: number; failed: number; seconds: number; lastError?: string }>;
}

export function placeOrders(options: {
  baseUrl: string;
  /** Session cookie (and shop cookies) of a signed-in shopper. */
  cookie: string;
  product: number;
  variant?: number;
  perSecond: number;
}): OrderPlacer {
  const { baseUrl, cookie } = options;
  const headers = { 'content-type': 'application/json', cookie, origin: baseUrl };
  let placed = 0;
  let failed = 0;
  let lastError: string | undefined;
  let inFlight = Promise.resolve();
  const started = Date.now();
  const placeOne = async () => {
    try {
      const add = await fetch(`${baseUrl}/api/basket`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ product: options.product, variant: options.variant }),
      });
      await add.arrayBuffer();
      const order = await fetch(`${baseUrl}/api/order`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          locale: 'en',
          email: 'bench-orders@vitrina.example',
          firstName: 'Bench',
          lastName: 'Orders',
          phone: '+7 900 000-00-00',
          country: 'RU',
          city: 'Москва',
          zip: '101000',
          address: 'ул. Тестовая, 1',
          paymentMethod: 'robokassa',
          deliveryMethod: 'russian_post',
        }),
      });
      const text = await order.text();
      if (order.ok) placed += 1;
      else {
        failed += 1;
        lastError = `${order.status} ${text.slice(0, 200)}`;
      }
    } catch (error) {
      failed += 1;
      lastError = (error as Error).message;
    }
  };
  // One order at a time, started on a fixed beat: a slow order delays the next, never doubles up.
  const timer = setInterval(() => {
    inFlight = inFlight.then(placeOne);
  }, 1000 / options.perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      return { placed, failed, seconds: (Date.now() - started) / 1000, lastError };
    },
  };
}

/** Signs a user in through the API; answers the session cookie pair. */
export async function signIn(baseUrl: string, shopCookie: string, email: string, password: string) {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: shopCookie, origin: baseUrl },
    body: JSON.stringify({ email, password, remember: 1 }),
  });
  const session = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('vitrina.sid='));
  if (!response.ok || !session) throw new Error(`/api/login answered ${response.status} with no session`);
  return session;
}
