import pg from 'pg';
import { PRODUCT_LIST_SORTS } from '../../src/contract/admin.ts';
import { SCALE_ADMIN } from './orders.ts';

/**
 * The back office on the scale shop: every screen as a manager opens it, timed on the server. A
 * screen is its server-rendered page (the admin layout's guard) and the `/api/admin` calls its
 * client loader makes; its time is the sum of them asked one after another (the browser asks the
 * calls in parallel, so this is an upper bound). Each screen is loaded `repeats` times after one
 * untimed load; the figure that must stay under ADMIN_TARGET_MS is the slowest of them.
 */

export const ADMIN_TARGET_MS = 1000;
const REPEATS = 5;

export interface AdminScreen {
  name: string;
  page: string;
  calls: string[];
}

export interface AdminScreenResult {
  name: string;
  /** Median and slowest load of the whole screen (page and calls), in ms. */
  medianMs: number;
  maxMs: number;
  /** The slowest call of the screen and its median, to see where the time goes. */
  slowestCall: { path: string; medianMs: number };
  problems: string[];
  pass: boolean;
}

interface Sample {
  orderId: number;
  customerId: number;
  productId: number;
  projectId: number;
  categoryId: number;
  customerEmail: string;
  productName: string;
  day: string;
}

async function sample(databaseUrl: string): Promise<Sample> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const one = async <T>(text: string) => (await client.query(text)).rows[0] as T;
    // The customer with the most orders, the newest order with most items: the heaviest pages.
    const customer = await one<{ id: number; email: string }>(
      `select u.id, u.email from users u join orders o on o.user_id = u.id
       group by u.id order by count(*) desc limit 1`,
    );
    const order = await one<{ id: number; day: string }>(
      `select o.id, to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD') as day
       from orders o join order_items i on i.order_id = o.id
       group by o.id order by count(*) desc, o.id desc limit 1`,
    );
    const product = await one<{ id: number; name: string; project: number }>(
      `select p.id, p.name_en as name, p.project_id as project
       from products p join order_items i on i.product_id = p.id
       group by p.id order by count(*) desc limit 1`,
    );
    const category = await one<{ id: number }>(
      'select category_id as id from product_categories group by 1 order by count(*) desc limit 1',
    );
    return {
      orderId: order.id,
      day: order.day,
      customerId: customer.id,
      customerEmail: customer.email,
      productId: product.id,
      productName: product.name.split(' ')[1] ?? product.name,
      projectId: product.project,
      categoryId: category.id,
    };
  } finally {
    await client.end();
  }
}

/** Every back-office screen, with the products and orders lists under each filter and sort. */
export async function adminScreens(databaseUrl: string): Promise<AdminScreen[]> {
  const s = await sample(databaseUrl);
  const productsList = (query: string): AdminScreen => ({
    name: `products ${query || '(newest)'}`,
    page: `/admin/products${query ? `?${query}` : ''}`,
    calls: [`/api/admin/products?${query}`, '/api/admin/projects', '/api/admin/categories'],
  });
  const ordersList = (query: string): AdminScreen => ({
    name: `orders ${query || '(to handle)'}`,
    page: `/admin/orders${query ? `?${query}` : ''}`,
    calls: [`/api/admin/orders?${query}`],
  });
  return [
    { name: 'dashboard', page: '/admin', calls: ['/api/admin/dashboard'] },
    productsList(''),
    ...PRODUCT_LIST_SORTS.filter((sort) => sort !== 'new').map((sort) => productsList(`sort=${sort}`)),
    productsList(`project=${s.projectId}`),
    productsList(`category=${s.categoryId}`),
    productsList('hidden=1'),
    productsList('envisioned=1'),
    productsList('stock=low'),
    productsList('stock=out'),
    productsList('stock=low&sort=name'),
    productsList(`search=${encodeURIComponent(s.productName)}`),
    productsList('page=5000'),
    {
      name: 'product editor',
      page: `/admin/products/${s.productId}`,
      calls: [
        `/api/admin/products/${s.productId}`,
        `/api/admin/products/${s.productId}/variants`,
        '/api/admin/projects',
        '/api/admin/categories',
      ],
    },
    ordersList(''),
    ordersList('status='),
    ordersList('status=5'),
    ordersList('status=%3E2'),
    ordersList(`status=&email=${encodeURIComponent(s.customerEmail)}`),
    ordersList('status=&lastName=Smith'),
    ordersList(`status=&date=${s.day}`),
    ordersList(`status=&product=${s.productId}`),
    ordersList(`status=&product=${encodeURIComponent(s.productName)}`),
    ordersList('status=&page=2000'),
    {
      name: 'order',
      page: `/admin/orders/${s.orderId}`,
      calls: [`/api/admin/orders/${s.orderId}`, `/api/admin/orders/${s.orderId}/payments`],
    },
    { name: 'customers', page: '/admin/customers', calls: ['/api/admin/customers'] },
    {
      name: 'customers search',
      page: '/admin/customers?search=smith',
      calls: ['/api/admin/customers?search=smith'],
    },
    {
      name: 'customer',
      page: `/admin/customers/${s.customerId}`,
      calls: [`/api/admin/customers/${s.customerId}`],
    },
    { name: 'staff', page: '/admin/staff', calls: ['/api/admin/staff'] },
    { name: 'files', page: '/admin/files', calls: ['/api/admin/files?path='] },
    {
      name: 'files: product pictures',
      page: '/admin/files',
      calls: [
        '/api/admin/files/catalogue?kind=products',
        '/api/admin/files/catalogue?kind=products&page=500',
      ],
    },
    {
      name: 'packing slip',
      page: `/admin/orders/${s.orderId}/packing-slip`,
      calls: [`/api/admin/orders/${s.orderId}/packing-slip`],
    },
    { name: 'drops', page: '/admin/drops', calls: ['/api/admin/drops'] },
    { name: 'info pages', page: '/admin/pages/about', calls: ['/api/admin/pages/about'] },
    { name: 'projects', page: '/admin/projects', calls: ['/api/admin/projects'] },
    { name: 'categories', page: '/admin/categories', calls: ['/api/admin/categories'] },
    { name: 'partners', page: '/admin/partners', calls: ['/api/admin/partners'] },
    { name: 'feedback', page: '/admin/feedback', calls: ['/api/admin/feedback'] },
    { name: 'reviews', page: '/admin/reviews', calls: ['/api/admin/reviews'] },
    { name: 'audit', page: '/admin/audit', calls: ['/api/admin/audit'] },
    {
      name: 'search',
      page: '/admin/search',
      calls: ['/api/admin/search/synonyms', '/api/admin/search/stats?days=7'],
    },
  ];
}

/** Signs the scale admin in and answers the cookie header to send. */
export async function signInScaleAdmin(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SCALE_ADMIN),
  });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  if (!response.ok || cookies.length === 0)
    throw new Error(`the scale admin could not sign in: ${response.status} ${await response.text()}`);
  return [...cookies, 'overlay-test-info=hidden'].join('; ');
}

async function timed(baseUrl: string, path: string, cookie: string) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { headers: { cookie, 'accept-language': 'en' } });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Loads every screen `REPEATS` times (after one untimed load) and answers its figures. */
export async function timeAdminScreens(
  baseUrl: string,
  cookie: string,
  screens: AdminScreen[],
  log: (line: string) => void = () => {},
): Promise<AdminScreenResult[]> {
  const results: AdminScreenResult[] = [];
  for (const screen of screens) {
    const paths = [screen.page, ...screen.calls];
    for (const path of paths) await timed(baseUrl, path, cookie);
    const perPath = new Map<string, number[]>(paths.map((path) => [path, []]));
    const totals: number[] = [];
    const problems = new Set<string>();
    for (let round = 0; round < REPEATS; round++) {
      let total = 0;
      for (const path of paths) {
        const { ms, status } = await timed(baseUrl, path, cookie);
        if (status !== 200) problems.add(`${status} ${path}`);
        perPath.get(path)?.push(ms);
        total += ms;
      }
      totals.push(total);
    }
    const [slowestPath, slowestTimes] = [...perPath].sort((a, b) => median(b[1]) - median(a[1]))[0] ?? [
      '',
      [],
    ];
    const maxMs = Math.max(...totals);
    results.push({
      name: screen.name,
      medianMs: median(totals),
      maxMs,
      slowestCall: { path: slowestPath, medianMs: median(slowestTimes) },
      problems: [...problems],
      pass: problems.size === 0 && maxMs < ADMIN_TARGET_MS,
    });
    log(`  ${screen.name}: ${maxMs.toFixed(0)} ms`);
  }
  return results;
}

/** The table of the admin screens' timings. */
export function printAdminScreens(results: AdminScreenResult[], print: (line: string) => void = console.log) {
  const header = ['Back-office screen', 'median ms', 'max ms', 'slowest call (median ms)', ''];
  const rows = results.map((result) => [
    result.name,
    result.medianMs.toFixed(1),
    result.maxMs.toFixed(1),
    `${result.slowestCall.path.replace(/^\/api\/admin/, '')} (${result.slowestCall.medianMs.toFixed(1)})`,
    result.problems.length > 0
      ? `ERRORS: ${result.problems.join('; ')}`
      : result.pass
        ? `< ${ADMIN_TARGET_MS} PASS`
        : 'FAIL',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `  ${cells.map((cell, column) => (column === 1 || column === 2 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join('  ')}`.trimEnd();
  print(line(header));
  print(`  ${'-'.repeat(widths.reduce((sum, width) => sum + width + 2, -2))}`);
  for (const row of rows) print(line(row));
}
