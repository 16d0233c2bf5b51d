import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ZodType, z } from 'zod';
import type { StaffRole } from '../../contract/accounts.ts';
import { errorResponse } from '../../contract/catalog.ts';
import { Invalid } from '../errors.ts';

/**
 * One `/api` call: its contract (zod schemas, shared with the browser and turned into OpenAPI) and
 * a thin handler. `registerApi` validates input with the schemas before the handler runs.
 */
interface RouteContract<Query, Body, Params> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tags: string[];
  /** Path parameters, e.g. `{ id }` of `/api/admin/products/:id`. */
  params?: ZodType<Params>;
  query?: ZodType<Query>;
  body?: ZodType<Body>;
  response: ZodType;
  /** Refusals with a body of their own, documented beside the default error (e.g. 409 with new figures). */
  refusals?: Record<number, { description: string; body: ZodType }>;
  /** Largest body it takes, when above the app's 1 MB (uploads, imports); see body-limits.ts. */
  bodyLimit?: number;
  /**
   * `false`: its answers go out uncompressed (@fastify/compress's own route option), for a short
   * answer of a write that many send at once, such as placing an order in a drop: compressing its
   * 2 KB cost more of the shop's one thread than the bytes it saved (ADR 0089).
   */
  compress?: false;
}

interface HandlerInput<Query, Body, Params> {
  params: Params;
  query: Query;
  body: Body;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A call anyone may make. */
type PublicRoute<Query, Body, Params> = RouteContract<Query, Body, Params> & {
  access?: undefined;
  handler(input: HandlerInput<Query, Body, Params>): Promise<unknown>;
};

/** A back-office call: refused before its input is read unless the caller is staff of `access`. */
type StaffRoute<Query, Body, Params> = RouteContract<Query, Body, Params> & {
  /**
   * The least staff role that may call it. `manager`: managers and admins (catalogue, orders,
   * content); `admin`: admins only (staff accounts, deletions). Refused (401/403) before any input
   * is read.
   */
  access: StaffRole;
  /** `staffId`: the staff member the access check let in (the actor of audit rows and stock movements). */
  handler(input: HandlerInput<Query, Body, Params> & { staffId: number }): Promise<unknown>;
};

export type ApiRoute<Query = unknown, Body = unknown, Params = unknown> =
  | PublicRoute<Query, Body, Params>
  | StaffRoute<Query, Body, Params>;

export function defineRoute<Query, Body, Params = unknown>(route: StaffRoute<Query, Body, Params>): ApiRoute;
export function defineRoute<Query, Body, Params = unknown>(route: PublicRoute<Query, Body, Params>): ApiRoute;
export function defineRoute<Query, Body, Params>(route: ApiRoute<Query, Body, Params>) {
  return route as ApiRoute;
}

/** Checks run before a guarded call's input is even parsed. */
export interface Guards {
  /** Answers the staff member's id, or refuses (401/403). */
  staff(request: FastifyRequest, role: StaffRole): Promise<number>;
}

/** Turns zod issues into the spec's `errors: { field: [messages] }`. */
export function parseOrThrow<T>(schema: ZodType<T>, input: unknown): T {
  // No body at all is an empty form; a JSON `null` is not.
  const result = schema.safeParse(input === undefined ? {} : input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'input';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new Invalid('request-invalid', errors);
}

/**
 * Helmet's options for every call of the API (ADR 0084): the same security headers and policy as
 * every answer, without the two nonces a page's inline scripts and styles need. A JSON answer has
 * no inline script or style for a nonce to allow, so making two per answer was work for nothing.
 */
export const API_ROUTE_CONFIG = { cspNonces: false } as const;

/** The calls of the API, by whether they read who is asking. */
export interface ApiCalls {
  /** Calls that read no session (catalogue reads, feedback): anyone's, answered without one. */
  visitorFree: ApiRoute[];
  /** Calls that read or make the visitor's session: the basket, accounts, orders, the back office. */
  visitors: ApiRoute[];
}

/**
 * Registers the calls in a scope prefixed with `/api`. A PATCH or DELETE call is also reachable as
 * a form POST with `_method=PATCH|DELETE` (Laravel-style method spoofing, as the spec's clients
 * send it). Unknown paths under `/api` answer a JSON 404.
 *
 * The calls that read no visitor are registered in a scope of their own, and `withVisitors`
 * (the session and the cookies that go with it) in their siblings' only: a catalogue read neither
 * reads nor makes a session (ADR 0091). A staff call there would have no session to check, so it
 * is refused when the app is built.
 */
export async function registerApi(
  app: FastifyInstance,
  calls: ApiCalls,
  guards: Guards,
  withVisitors: (scope: FastifyInstance) => Promise<void>,
) {
  const staffCall = calls.visitorFree.find((route) => route.access !== undefined);
  if (staffCall)
    throw new Error(`${staffCall.method} ${staffCall.url} is a staff call: it needs the session`);
  await app.register(async (scope) => registerCalls(scope, calls.visitorFree, guards));
  await app.register(async (scope) => {
    await withVisitors(scope);
    registerCalls(scope, calls.visitors, guards);
  });
  // Every method but OPTIONS, which answers CORS preflights.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    config: API_ROUTE_CONFIG,
    handler: async (_request, reply) => reply.status(404).send(NOT_FOUND_ANSWER),
  });
}

function registerCalls(app: FastifyInstance, routes: ApiRoute[], guards: Guards) {
  const scoped = (url: string) => url.replace(/^\/api/, '');
  const input = (route: ApiRoute, request: FastifyRequest, reply: FastifyReply) => ({
    params: route.params ? parseOrThrow(route.params, request.params) : undefined,
    query: route.query ? parseOrThrow(route.query, request.query) : undefined,
    body: route.body ? parseOrThrow(route.body, withoutMethodField(request.body)) : undefined,
    request,
    reply,
  });
  const handle = (route: ApiRoute) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (route.access === undefined) return route.handler(input(route, request, reply));
    const staffId = await guards.staff(request, route.access);
    return route.handler({ ...input(route, request, reply), staffId });
  };
  for (const route of routes)
    app.route({
      method: route.method,
      url: scoped(route.url),
      bodyLimit: route.bodyLimit,
      ...(route.compress === false ? { compress: false as const } : {}),
      config: API_ROUTE_CONFIG,
      handler: handle(route),
    });

  const spoofable = new Map<string, Map<string, ApiRoute>>();
  for (const route of routes) {
    if (route.method !== 'PATCH' && route.method !== 'DELETE') continue;
    const methods = spoofable.get(route.url) ?? new Map<string, ApiRoute>();
    methods.set(route.method, route);
    spoofable.set(route.url, methods);
  }
  for (const [url, methods] of spoofable) {
    if (routes.some((route) => route.method === 'POST' && route.url === url)) continue;
    app.post(scoped(url), { config: API_ROUTE_CONFIG }, async (request, reply) => {
      const spoofed = String(
        (request.body as { _method?: unknown } | undefined)?._method ?? '',
      ).toUpperCase();
      const route = methods.get(spoofed);
      if (!route) {
        throw new Invalid('request-invalid', {
          _method: [`Send _method=${[...methods.keys()].join(' or ')}`],
        });
      }
      return handle(route)(request, reply);
    });
  }
}

export const NOT_FOUND_ANSWER = {
  success: false,
  errors: { path: ['No such API call'] },
  message: 'Not found',
};

function withoutMethodField(body: unknown) {
  if (!body || typeof body !== 'object' || !('_method' in body)) return body;
  const { _method, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** Sends an answer that was serialized once and cached. */
export const sendJson = (reply: FastifyReply, json: string) =>
  reply.type('application/json; charset=utf-8').send(json);

/**
 * Every refusal of the API: `{ success: false, errors, message }`, Fastify's own refusals included
 * (bad JSON, wrong media type, body too large or unmeasured, an unroutable path), with the fields
 * some refusals add (DomainError.details).
 */
export const apiErrorResponse = errorResponse.extend({
  unavailable: z
    .array(z.number())
    .optional()
    .describe('409 basket-unavailable: the basket items (product ids) no longer available in that count'),
  limit: z.number().optional().describe('422 limit-reached: how many one customer may order'),
  product: z.number().optional().describe('422 limit-reached: the product over its limit'),
  variant: z.number().optional().describe('422 limit-reached: its variant, if any'),
  skus: z.array(z.string()).optional().describe('409 variant-ordered: the variants open orders hold'),
  sku: z.string().optional().describe('409 sku-taken: the SKU another product uses'),
  products: z.number().optional().describe('409 category-has-products: how many products it holds'),
  from: z.number().optional().describe('409 order-status-move-refused: the status the order has'),
  to: z.number().optional().describe('409 order-status-move-refused: the status asked for'),
  variantId: z.number().optional().describe('409 stock-moved, 422 write-off: the variant'),
  current: z.number().optional().describe('409 stock-moved, 422 write-off: its units in stock now'),
  carrier_text: z
    .string()
    .optional()
    .describe('422 shipment-refused: the carrier’s own words, as it answered (ADR 0087)'),
  items: z
    .array(z.object({ sku: z.string(), missing: z.array(z.string()) }))
    .optional()
    .describe('409 customs-data-missing: the items lacking customs data, and which fields'),
  taken: z
    .array(
      z.object({
        id: z.number(),
        name_ru: z.string(),
        name_en: z.string(),
        drop: z.object({ id: z.number(), name_ru: z.string(), name_en: z.string() }),
      }),
    )
    .optional()
    .describe('409 product-in-another-drop: the products and the upcoming drop that holds each'),
});

export function openApiDocument(routes: ApiRoute[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = z.toJSONSchema(apiErrorResponse, { io: 'output' });
  for (const route of routes) {
    const parameters = route.query
      ? Object.entries(
          (
            z.toJSONSchema(route.query, { io: 'input' }) as {
              properties?: Record<string, { description?: string }>;
            }
          ).properties ?? {},
        ).map(([name, schema]) => ({
          name,
          in: 'query',
          required: (
            (z.toJSONSchema(route.query as ZodType, { io: 'input' }) as { required?: string[] }).required ??
            []
          ).includes(name),
          description: schema.description,
          schema,
        }))
      : [];
    const pathParameters = [...route.url.matchAll(/:(\w+)/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: route.tags,
      parameters: [...pathParameters, ...parameters],
      ...(route.body
        ? {
            requestBody: {
              content: Object.fromEntries(
                ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'].map(
                  (type) => [type, { schema: z.toJSONSchema(route.body as ZodType, { io: 'input' }) }],
                ),
              ),
            },
          }
        : {}),
      responses: {
        200: {
          description: 'Success',
          content: { 'application/json': { schema: z.toJSONSchema(route.response, { io: 'output' }) } },
        },
        ...Object.fromEntries(
          Object.entries(route.refusals ?? {}).map(([status, refusal]) => [
            status,
            {
              description: refusal.description,
              content: { 'application/json': { schema: z.toJSONSchema(refusal.body, { io: 'output' }) } },
            },
          ]),
        ),
        default: { description: 'Error', content: { 'application/json': { schema: errorSchema } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vitrina API',
      version: '1',
      description: 'The storefront contract of the specification, section 7.',
    },
    servers: [{ url: serverUrl }],
    paths,
  };
}
