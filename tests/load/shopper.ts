import { SHOP_COOKIES } from './cluster.ts';

/**
 * One visitor: a cookie jar shared by every instance it talks to (a browser keeps cookies per host,
 * not per port, and the instances stand behind one address in production), plain `fetch` calls,
 * and an optional recorder that times every request by kind.
 */

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** A request that got no HTTP answer at all (refused, reset, timed out). */
export class ConnectionFailure extends Error {
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(
      `${url}: ${cause instanceof Error ? `${cause.message} ${String(cause.cause ?? '')}` : String(cause)}`,
    );
  }
}

export interface Recorder {
  record(kind: string, milliseconds: number, status: number | 'connection-error'): void;
}

const REQUEST_TIMEOUT_MS = 60_000;

export type Body = { json: unknown } | { form: Record<string, string> } | { raw: string; type?: string };

export class Shopper {
  readonly cookies = new Map<string, string>(Object.entries(SHOP_COOKIES));

  constructor(
    /** The instance this shopper talks to unless a call names another. */
    public baseUrl: string,
    /** Times the requests from now on; a test may swap it between phases (sign-in, then the run). */
    public recorder?: Recorder,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keepCookies(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const split = pair.indexOf('=');
      const name = pair.slice(0, split).trim();
      const value = pair.slice(split + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /**
   * Sends one request; `target` is a path on `baseUrl` or an absolute URL. Throws ConnectionFailure
   * when there is no answer; any HTTP status is returned.
   */
  async request(
    kind: string,
    method: string,
    target: string,
    body?: Body,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const url = /^https?:/.test(target) ? target : `${this.baseUrl}${target}`;
    const init: RequestInit & { headers: Record<string, string> } = {
      method,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { accept: 'application/json, text/html;q=0.9', cookie: this.cookieHeader(), ...headers },
    };
    if (body && 'json' in body) {
      init.body = JSON.stringify(body.json);
      init.headers['content-type'] ??= 'application/json';
    } else if (body && 'form' in body) {
      init.body = new URLSearchParams(body.form).toString();
      init.headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (body) {
      init.body = body.raw;
      if (body.type) init.headers['content-type'] = body.type;
    }
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, init);
      text = await response.text();
    } catch (error) {
      this.recorder?.record(kind, performance.now() - started, 'connection-error');
      throw new ConnectionFailure(url, error);
    }
    this.recorder?.record(kind, performance.now() - started, response.status);
    this.keepCookies(response.headers);
    let json: unknown;
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: response.status, text, headers: response.headers, json };
  }

  get = (kind: string, target: string) => this.request(kind, 'GET', target);
  post = (kind: string, target: string, body?: Body) => this.request(kind, 'POST', target, body);

  /** A call that must answer 2xx; returns the parsed JSON. */
  async ok<T = Record<string, unknown>>(
    kind: string,
    method: string,
    target: string,
    body?: Body,
  ): Promise<T> {
    const answer = await this.request(kind, method, target, body);
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`${method} ${target} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
    }
    return answer.json as T;
  }

  signIn = (email: string, password: string) =>
    this.ok<{ user: { email: string; isAdmin?: boolean } }>('api login', 'POST', '/api/login', {
      json: { email, password, remember: 1 },
    });
}

/**
 * Awaits a request whose status must be one of `statuses`. A 5xx is returned, not thrown: the
 * recorder counts it and the test asserts on all of them at the end. Any other status stops the
 * visitor with the answer's beginning.
 */
export async function expectStatus(answer: Promise<Answer>, statuses: number[]): Promise<Answer> {
  const settled = await answer;
  if (!statuses.includes(settled.status) && settled.status < 500) {
    throw new Error(`unexpected ${settled.status}: ${settled.text.slice(0, 300)}`);
  }
  return settled;
}

/** What POST /api/order answers for a Robokassa order: the form that opens the payment page. */
export interface RobokassaPayment {
  url: string;
  fields: Record<string, string>;
}

/** Opens the Robokassa sandbox's invoice page; returns the sealed ticket its buttons send. */
async function openRobokassaInvoice(shopper: Shopper, payment: RobokassaPayment) {
  const invoice = await shopper.post('robokassa page', payment.url, { form: payment.fields });
  if (invoice.status !== 200) {
    throw new Error(`the Robokassa page answered ${invoice.status}: ${invoice.text.slice(0, 300)}`);
  }
  return Object.fromEntries(
    [...invoice.text.matchAll(/<input type="hidden" name="(invoice|mac)" value="([^"]+)">/g)]
      .slice(0, 2)
      .map((match) => [match[1], match[2]]),
  ) as Record<string, string>;
}

/**
 * Pays at the Robokassa sandbox: its ResultURL notification reaches the shop (the first attempt is
 * awaited) before it answers 303 to SuccessURL, so the order is paid once this resolves with 303.
 */
export async function payAtRobokassa(shopper: Shopper, payment: RobokassaPayment): Promise<Answer> {
  const ticket = await openRobokassaInvoice(shopper, payment);
  return shopper.post('robokassa pay', `${payment.url}/pay`, { form: ticket });
}

/**
 * Cancels at the Robokassa sandbox and comes back as the shop's fail page does: it posts what
 * Robokassa returned with to /api/robokassa/cancel, which cancels the order (items back to the basket).
 */
export async function cancelAtRobokassa(shopper: Shopper, payment: RobokassaPayment): Promise<Answer> {
  const ticket = await openRobokassaInvoice(shopper, payment);
  const left = await shopper.post('robokassa cancel', `${payment.url}/cancel`, { form: ticket });
  const back = left.headers.get('location');
  if (left.status !== 303 || !back) {
    throw new Error(`the Robokassa cancel button answered ${left.status}: ${left.text.slice(0, 300)}`);
  }
  return shopper.post('api robokassa cancel', '/api/robokassa/cancel', {
    form: Object.fromEntries(new URL(back).searchParams),
  });
}

/** A recipient and delivery choice the test-mode carriers quote. */
export function orderBody(email: string, paymentMethod: 'robokassa' | 'paypal' = 'robokassa') {
  return {
    locale: 'ru',
    email,
    firstName: 'Нагрузка',
    lastName: 'Тестова',
    phone: '+7 900 000-00-00',
    country: 'RU',
    city: 'Москва',
    zip: '101000',
    address: 'ул. Тестовая, 1',
    paymentMethod,
    deliveryMethod: 'russian_post',
  };
}
