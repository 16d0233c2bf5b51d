import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ADMIN,
  cloneSeededShop,
  createAccounts,
  type Instance,
  removeDataDir,
  type ShopDatabase,
  startInstance,
} from './cluster.ts';
import { type Body, ConnectionFailure, Shopper } from './shopper.ts';

/**
 * Every /api route, as listed by the OpenAPI document plus the payment providers' callbacks, called
 * with bad input by a visitor, a signed-in shopper and the admin: malformed and mistyped JSON, wrong
 * media types, values of the wrong type or out of range in each field, path ids and query
 * parameters, bodies over the 1 MB limit, query strings and headers over Node's 16 KB, garbage
 * method spoofing. Nothing may answer 5xx or go unanswered, nothing but a harmless GET (and PayPal's
 * IPN, which must always answer 200) may succeed, and no table may change.
 */

type Role = 'visitor' | 'shopper' | 'admin';
type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  minimum?: number;
  maxLength?: number;
  required?: string[];
  additionalProperties?: JsonSchema;
};
interface Route {
  method: string;
  /** OpenAPI path, `{id}` for path parameters. */
  path: string;
  query: Record<string, JsonSchema>;
  body: JsonSchema | undefined;
}
interface Probe {
  name: string;
  method: string;
  target: string;
  /** Refused by closing the socket (see `onOwnConnection`). */
  closesConnection?: boolean;
  body?: Body;
  headers?: Record<string, string>;
}

/** Calls the shop answers in its providers' protocols; not in the OpenAPI document. */
const PROVIDER_CALLBACKS: Route[] = [
  {
    method: 'POST',
    path: '/api/robokassa/result',
    query: {},
    body: { type: 'object', additionalProperties: { type: 'string' } },
  },
  {
    method: 'GET',
    path: '/api/robokassa/result',
    query: { InvId: { type: 'string' }, OutSum: { type: 'string' }, SignatureValue: { type: 'string' } },
    body: undefined,
  },
  {
    method: 'POST',
    path: '/api/paypal/webhook',
    query: {},
    body: { type: 'object', additionalProperties: { type: 'string' } },
  },
];
/**
 * Calls that answer 2xx to input they cannot act on, by protocol: the result and cancel pages'
 * checks answer `status: -1`.
 */
const ANSWERS_2XX = new Set([
  'POST /api/robokassa/status',
  'POST /api/robokassa/cancel',
  'POST /api/paypal/status',
  'POST /api/paypal/cancel',
]);
/** Signing out needs no input, so any request signs out: not sent for a signed-in role. */
const NO_INPUT_ACTIONS = new Set(['POST /api/logout']);
/** The spec's clients send 0 for these ids (POST /api/basket/0 …): the id is not read. */
const PLACEHOLDER_IDS = new Set(['/api/basket/{id}', '/api/wishlist/{id}', '/api/user/{id}']);
/** Spec section 5: a cart count that is not a whole number of at least 1 falls back to 1. */
const FALLBACK_FIELDS = new Set(['PATCH /api/basket/{id} count']);

const DATABASE_INT_OVERFLOW = 2_147_483_648;
const BAD_IDS = [
  'abc',
  '0',
  '-1',
  '1.5',
  String(DATABASE_INT_OVERFLOW),
  '99999999999999999999',
  '%00',
  '%ZZ',
  'null',
];
/** Names of the providers' return parameters, for the routes that take any string map. */
const PROVIDER_PARAMS = ['order', 'invoice', 'InvId', 'OutSum', 'SignatureValue', 'txn_id', 'mc_gross'];
const PROVIDER_VALUES = [String(DATABASE_INT_OVERFLOW), '1e20', '-1', 'abc', 'x\u0000y', '٣'];

/** A value the field's schema accepts, so that a mutation of one field is the only fault. */
function plausible(schema: JsonSchema, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf?.[0]) return plausible(schema.anyOf[0], name);
  switch (schema.type) {
    case 'string': {
      if (/email/i.test(name)) return 'fuzz@load.example';
      const candidates = ['fuzz', 'RU', '101000', '+7 900 000-00-00', 'fuzz-link'];
      const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
      return candidates.find((candidate) => !pattern || pattern.test(candidate)) ?? 'fuzz';
    }
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, plausible(value, key)]),
      );
    default:
      return 'fuzz';
  }
}

/** Values that are wrong for a field of this schema, whatever the other fields hold. */
function wrongValues(schema: JsonSchema): unknown[] {
  const type = schema.type ?? schema.anyOf?.find((branch) => branch.type !== 'null')?.type;
  switch (type) {
    case 'string':
      return [
        12345,
        {},
        [['x']],
        'nul\u0000byte',
        ...(schema.maxLength !== undefined ? ['x'.repeat(schema.maxLength + 1)] : []),
        ...(schema.enum || schema.pattern ? ['Not A Valid Choice!'] : []),
      ];
    case 'integer':
    case 'number':
      return [
        'abc',
        {},
        [[1]],
        'NaN',
        '1e400',
        DATABASE_INT_OVERFLOW,
        1e20,
        -1e20,
        ...(type === 'integer' ? [1.5] : []),
      ];
    case 'array':
      return ['abc', [{}], [DATABASE_INT_OVERFLOW], [[1]]];
    case 'object':
      return ['abc', 12345];
    default:
      // Booleans are HTML checkboxes (anything but a checked value is false); untyped fields take anything.
      return [];
  }
}

const fill = (path: string, id: string) => path.replace(/\{\w+\}/g, id);

/**
 * `full`: every field, id and parameter too, not only the malformed requests. `spoofable`: a PATCH
 * or DELETE whose URL takes POST with `_method` (no real POST shares the URL).
 */
function probesFor(route: Route, full: boolean, spoofable: boolean): Probe[] {
  const { method } = route;
  const target = fill(route.path, '1');
  const probes: Probe[] = [];
  const hasBody = route.body !== undefined;
  const base = route.body ? plausible(route.body) : {};

  // Malformed requests of every kind.
  probes.push(
    {
      name: 'query string over 16 KB',
      method,
      target: `${target}?q=${'x'.repeat(20_000)}`,
      closesConnection: true,
    },
    {
      name: 'header over 16 KB',
      method,
      target,
      headers: { 'x-fuzz': 'x'.repeat(20_000) },
      closesConnection: true,
    },
  );
  if (hasBody) {
    probes.push(
      { name: 'bad JSON', method, target, body: { raw: '{"product": 1,', type: 'application/json' } },
      { name: 'JSON array', method, target, body: { raw: '[1, 2]', type: 'application/json' } },
      { name: 'JSON null', method, target, body: { raw: 'null', type: 'application/json' } },
      { name: 'JSON string', method, target, body: { raw: '"text"', type: 'application/json' } },
      { name: 'plain text', method, target, body: { raw: 'hello', type: 'text/plain' } },
      { name: 'XML', method, target, body: { raw: '<a>1</a>', type: 'application/xml' } },
      { name: 'multipart without boundary', method, target, body: { raw: 'x', type: 'multipart/form-data' } },
      {
        name: 'JSON over 1 MB',
        method,
        target,
        body: { json: { ...(base as object), padding: 'x'.repeat(1_100_000) } },
      },
      { name: 'form over 1 MB', method, target, body: { form: { padding: 'x'.repeat(1_100_000) } } },
    );
    // Busboy reads a malformed multipart body as an empty form: only a fault where fields are required.
    if ((route.body?.required ?? []).length > 0) {
      probes.push({
        name: 'broken multipart',
        method,
        target,
        body: {
          raw: '--b\r\ncontent-disposition: form-data\r\n\r\nx',
          type: 'multipart/form-data; boundary=b',
        },
      });
    }
  }
  if (spoofable) {
    probes.push(
      {
        name: 'garbage _method',
        method: 'POST',
        target,
        body: { json: { ...(base as object), _method: 'PUT\u0000' } },
      },
      { name: 'unknown _method', method: 'POST', target, body: { form: { _method: 'TRACE' } } },
      {
        name: '_method list',
        method: 'POST',
        target,
        body: { raw: '_method=PATCH&_method=DELETE', type: 'application/x-www-form-urlencoded' },
      },
    );
  }
  if (!full) return probes;

  // One wrong field at a time in an otherwise plausible body.
  for (const [field, schema] of Object.entries(route.body?.properties ?? {})) {
    if (FALLBACK_FIELDS.has(`${method} ${route.path} ${field}`)) continue;
    for (const value of wrongValues(schema)) {
      probes.push({
        name: `body ${field}=${JSON.stringify(value).slice(0, 40)}`,
        method,
        target,
        body: { json: { ...(base as object), [field]: value } },
      });
    }
  }
  if (route.body?.additionalProperties) {
    for (const field of PROVIDER_PARAMS)
      for (const value of PROVIDER_VALUES)
        probes.push({
          name: `form ${field}=${JSON.stringify(value)}`,
          method,
          target,
          body: { form: { [field]: value } },
        });
  }
  // Ids in the path that are no ids.
  if (route.path.includes('{') && !PLACEHOLDER_IDS.has(route.path)) {
    for (const id of BAD_IDS) {
      probes.push({
        name: `path id ${id}`,
        method,
        target: fill(route.path, id),
        ...(hasBody ? { body: { json: base } } : {}),
      });
    }
  }
  // Query parameters of the wrong type, repeated, or holding a NUL.
  const plausibleQuery = Object.fromEntries(
    Object.entries(route.query).map(([name, schema]) => [name, String(plausible(schema, name))]),
  );
  for (const [name, schema] of Object.entries(route.query)) {
    const wrong =
      schema.type === 'integer' || schema.type === 'number'
        ? ['abc', String(DATABASE_INT_OVERFLOW), '1e400', '-1', '1.5']
        : ['\u0000', 'x'.repeat(5_000), 'Not A Valid Choice!', '%'];
    for (const value of wrong) {
      const query = new URLSearchParams({ ...plausibleQuery, [name]: value });
      probes.push({
        name: `query ${name}=${JSON.stringify(value).slice(0, 20)}`,
        method,
        target: `${target}?${query}`,
      });
    }
    probes.push({
      name: `query ${name} repeated`,
      method,
      target: `${target}?${new URLSearchParams(plausibleQuery)}&${name}=1&${name}=2`,
    });
  }
  if (route.method === 'GET' && route.path.startsWith('/api/robokassa')) {
    for (const value of PROVIDER_VALUES)
      probes.push({
        name: `query InvId=${JSON.stringify(value)}`,
        method,
        target: `${target}?${new URLSearchParams({ InvId: value, OutSum: value, SignatureValue: value })}`,
      });
  }
  return probes;
}

/**
 * Fastify answers an over-long request line or header (431) and destroys the socket without saying
 * `Connection: close`, so a keep-alive pool may hand that socket to the next request. These probes
 * get a connection of their own; a failure to connect at all is reported like any other.
 */
function onOwnConnection(url: string, method: string, headers: Record<string, string>) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', (error) => reject(new ConnectionFailure(url, error)));
    request.end();
  });
}

let database: ShopDatabase;
let dataDir: string;
let shop: Instance;

beforeAll(async () => {
  ({ database, dataDir } = await cloneSeededShop());
  shop = await startInstance({ name: 'fuzz', databaseUrl: database.url, dataDir });
});

afterAll(async () => {
  await shop?.stop();
  await database?.drop();
  if (dataDir) removeDataDir(dataDir);
});

/**
 * Row count and an md5 of every row of every table but the job queue, whose recurring jobs run on
 * their own schedule; of the queue, the jobs a request can enqueue.
 */
async function snapshot(): Promise<Record<string, string>> {
  const { rows: tables } = await database.sql.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_name <> 'jobs' order by 1",
  );
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await database.sql.query<{ count: number; digest: string }>(
      `select count(*)::int as count, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
    );
    state[name] = `${rows[0]?.count} rows ${rows[0]?.digest}`;
  }
  // Every kind but the recurring ones: a finished occurrence of those gives its unique key up to the
  // next one, so "no recurring key" also counted the minute's order expiry as a job a request made.
  const { rows: jobs } = await database.sql.query<{ count: number; newest: string | null }>(
    `select count(*)::int as count, max(id)::text as newest from jobs
      where kind not in (select kind from jobs where unique_key like 'recurring:%')`,
  );
  state.jobs = `${jobs[0]?.count} enqueued jobs, the newest ${jobs[0]?.newest}`;
  return state;
}

it('answers bad input to every /api route with a 4xx and changes nothing', async () => {
  const document = (await (await fetch(`${shop.baseUrl}/api/docs/json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { name: string; in: string; schema: JsonSchema }[];
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
        }
      >
    >;
  };
  const routes: Route[] = [
    ...Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        query: Object.fromEntries(
          (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
        ),
        body: operation.requestBody?.content['application/json']?.schema,
      })),
    ),
    ...PROVIDER_CALLBACKS,
  ];
  expect(routes.length).toBeGreaterThan(50);
  const postPaths = new Set(routes.filter((route) => route.method === 'POST').map((route) => route.path));

  const [account] = await createAccounts(database, 1, 'fuzz');
  if (!account) throw new Error('no account');
  const callers: Record<Role, Shopper> = {
    visitor: new Shopper(shop.baseUrl),
    shopper: new Shopper(shop.baseUrl),
    admin: new Shopper(shop.baseUrl),
  };
  await callers.shopper.signIn(account.email, account.password);
  await callers.admin.signIn(ADMIN.email, ADMIN.password);

  const failures: string[] = [];
  const accepted: string[] = [];
  const changes: string[] = [];
  let sent = 0;
  const started = Date.now();
  let before = await snapshot();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    for (const role of ['visitor', 'shopper', 'admin'] as Role[]) {
      if (role !== 'visitor' && NO_INPUT_ACTIONS.has(key)) continue;
      // Field by field as the role the call is for; the others get the malformed requests.
      const full = route.path.startsWith('/api/admin') ? role === 'admin' : role !== 'admin';
      const spoofable = (route.method === 'PATCH' || route.method === 'DELETE') && !postPaths.has(route.path);
      for (const probe of probesFor(route, full, spoofable)) {
        sent += 1;
        const label = `${role} ${probe.method} ${probe.target.slice(0, 80)} [${probe.name}]`;
        try {
          const caller = callers[role];
          const answer = probe.closesConnection
            ? await onOwnConnection(`${shop.baseUrl}${probe.target}`, probe.method, {
                cookie: caller.cookieHeader(),
                ...probe.headers,
              })
            : await caller.request('fuzz', probe.method, probe.target, probe.body, probe.headers);
          if (answer.status >= 500) failures.push(`${label} → ${answer.status} ${answer.text.slice(0, 200)}`);
          else if (answer.status < 400 && probe.method !== 'GET' && !ANSWERS_2XX.has(key))
            accepted.push(`${label} → ${answer.status} ${answer.text.slice(0, 200)}`);
        } catch (error) {
          if (!(error instanceof ConnectionFailure)) throw error;
          failures.push(`${label} → no answer: ${error.message}`);
        }
      }
      const after = await snapshot();
      for (const table of Object.keys({ ...before, ...after }))
        if (before[table] !== after[table]) changes.push(`${role} ${key} changed ${table}`);
      before = after;
    }
  }
  console.log(
    `fuzz: ${sent} requests to ${routes.length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [title, list] of Object.entries({ '5xx or no answer': failures, accepted, changes }))
    if (list.length > 0) console.log(`${title} (${list.length}):\n${list.join('\n')}`);
  expect({ failures: failures.length, accepted: accepted.length, changes: changes.length }).toEqual({
    failures: 0,
    accepted: 0,
    changes: 0,
  });
});
