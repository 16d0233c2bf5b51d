import { data } from 'react-router';
import type { z } from '../../contract/zod.ts';

/**
 * The back office talks to the JSON API (`/api/admin/*`) from the browser. The API checks the
 * session and the Origin header the browser sends with every same-origin write, and answers
 * refusals as `{ success: false, errors: { field: [text] }, message }` with texts in the language
 * named by `?locale=`, which every call here carries.
 */

export type FieldErrors = Record<string, string[]>;

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Texts per field, shown next to the field. */
    readonly fieldErrors: FieldErrors,
    /** The whole answer (the CSV import puts its report there). */
    readonly answer: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** The page's language, as the root layout wrote it into `<html lang>`. */
export const pageLocale = () =>
  typeof document === 'undefined' ? 'en' : document.documentElement.lang === 'ru' ? 'ru' : 'en';

type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * `/api/admin{path}?…&locale=…`. Absent values are left out; an empty one is sent, because it can
 * mean something (the order search's `status=` is "any status", its absence the default filter).
 */
export function adminUrl(path: string, query: Query | URLSearchParams = {}): string {
  const params = new URLSearchParams();
  const entries = query instanceof URLSearchParams ? [...query.entries()] : Object.entries(query);
  for (const [name, value] of entries) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  params.set('locale', pageLocale());
  return `/api/admin${path}?${params}`;
}

function fieldErrorsOf(value: unknown): FieldErrors {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).map(([field, texts]) => [
      field,
      (Array.isArray(texts) ? texts : [texts]).map(String),
    ]),
  );
}

interface CallOptions {
  query?: Query | URLSearchParams;
  /** A JSON body. */
  json?: unknown;
  /** A CSV file as chosen, its bytes untouched (the products import decodes it on the server). */
  csv?: Blob;
  signal?: AbortSignal;
}

export async function adminApi<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: CallOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | Blob | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.csv !== undefined) {
    headers['content-type'] = 'text/csv';
    body = options.csv;
  }
  const response = await fetch(adminUrl(path, options.query), {
    method,
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal ?? null,
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || answer.success !== true) {
    const message = typeof answer.message === 'string' ? answer.message : response.statusText;
    throw new AdminApiError(response.status, message, fieldErrorsOf(answer.errors), answer);
  }
  return answer as T;
}

/**
 * A GET for a client loader: a refusal becomes the error page inside the admin layout (401 and 403
 * the access-denied page; 404, and 422 for an address the API cannot read such as
 * /admin/orders/abc, the not-found page).
 */
export async function loadAdmin<T>(path: string, request: Request, query?: Query | URLSearchParams) {
  try {
    return await adminApi<T>('GET', path, { signal: request.signal, ...(query ? { query } : {}) });
  } catch (error) {
    if (error instanceof AdminApiError && error.status < 500) {
      const status = error.status === 401 ? 403 : error.status === 422 ? 404 : error.status;
      throw data(null, { status });
    }
    throw error;
  }
}

/** `loadAdmin` with its answer parsed by a schema of `src/contract` (ADR 0073) instead of cast. */
export async function loadAdminAnswer<Answer extends z.ZodType>(
  answer: Answer,
  path: string,
  request: Request,
  query?: Query | URLSearchParams,
): Promise<z.output<Answer>> {
  return answer.parse(await loadAdmin<unknown>(path, request, query));
}
