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
    private readonly recorder?: Recorder,
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
