import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMERS_PAGE_SIZE } from '../accounts/customers.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { auditLog, orders, sessions, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
const PASSWORD = 'customer password 1';
let anna: number;
let boris: number;

async function customer(values: Partial<typeof users.$inferInsert> & { email: string }) {
  const [row] = await shop.db
    .insert(users)
    .values({ passwordHash: await hashPassword(PASSWORD), emailVerifiedAt: new Date(), ...values })
    .returning({ id: users.id });
  if (!row) throw new Error('no customer');
  return row.id;
}

async function order(userId: number, status: number, productsCost: number, createdAt: Date) {
  await shop.db.insert(orders).values({
    userId,
    locale: 'ru',
    email: 'x@example.com',
    firstName: 'A',
    lastName: 'B',
    phone: '1',
    deliveryMethod: 'russian_post',
    deliveryCountry: 'RU',
    deliveryCity: 'Kazan',
    deliveryAddress: 'a',
    deliveryZip: '420111',
    paymentMethod: 'robokassa',
    productsCost,
    productsAmount: productsCost,
    deliveryCost: 500_00,
    status,
    expiresAt: createdAt,
    createdAt,
  });
}

const call = (method: 'GET' | 'POST', url: string, payload?: object, cookies = admin) =>
  shop.app.inject({ method, url, payload, cookies });

const signIn = (email: string) =>
  shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORD } });

beforeAll(async () => {
  shop = await createTestApp();
  admin = await signedInAdmin(shop);
  anna = await customer({
    email: 'anna@example.com',
    firstName: 'Анна',
    lastName: 'Петрова',
    phone: '+7 900 111-22-33',
  });
  boris = await customer({
    email: 'boris@example.com',
    firstName: 'Boris',
    lastName: 'Ivanov',
    locale: 'en',
  });
  await order(anna, 1, 2000_00, new Date('2026-10-01T10:00:00Z'));
  await order(anna, 2, 9999_00, new Date('2026-10-05T10:00:00Z'));
  await order(anna, 5, 1000_00, new Date('2026-11-01T10:00:00Z'));
});
afterAll(() => shop.close());

describe('customers in the back office', () => {
  it('finds customers by e-mail, name or phone, with orders, money spent (paid orders) and last order', async () => {
    const all = await call('GET', '/api/admin/customers');
    expect(all.statusCode).toBe(200);
    const list = all.json().list as Array<{ email: string }>;
    expect(list.map((row) => row.email)).toEqual(['boris@example.com', 'anna@example.com']);

    for (const search of ['anna@', 'Петрова', 'анна петрова', '111-22']) {
      const found = await call('GET', `/api/admin/customers?search=${encodeURIComponent(search)}`);
      expect(
        found.json().list.map((row: { id: number }) => row.id),
        search,
      ).toEqual([anna]);
    }
    const [annaRow] = (await call('GET', '/api/admin/customers?search=anna')).json().list;
    expect(annaRow).toMatchObject({
      orders: 3,
      // Paid orders only (1 and 5): products and delivery.
      spent: 2000 + 500 + 1000 + 500,
      lastOrderAt: '2026-11-01T10:00:00.000Z',
      blocked: false,
    });
    // The % of a search is a letter, not a wildcard; an admin is not a customer.
    expect((await call('GET', '/api/admin/customers?search=%25')).json().list).toEqual([]);
    expect((await call('GET', '/api/admin/customers?search=admin@')).json().list).toEqual([]);
  });

  it('goes to the last page for a page past the end', async () => {
    const page = (await call('GET', '/api/admin/customers?page=999')).json();
    expect(page).toMatchObject({ currentPage: 1, lastPage: 1, total: 2 });
    expect(page.list).toHaveLength(2);
    expect(CUSTOMERS_PAGE_SIZE).toBeGreaterThan(2);
  });

  it("shows a customer's details, orders newest first, and a timeline of notes with author and time", async () => {
    const empty = await call('POST', `/api/admin/customers/${anna}/notes`, { body: '   ' });
    expect(empty.statusCode).toBe(422);
    await call('POST', `/api/admin/customers/${anna}/notes`, { body: 'Asked to ship in a box' });
    const added = await call('POST', `/api/admin/customers/${anna}/notes`, { body: 'Prefers Boxberry' });
    expect(added.statusCode).toBe(200);
    expect(added.json().notes.map((note: { body: string }) => note.body)).toEqual([
      'Asked to ship in a box',
      'Prefers Boxberry',
    ]);
    const detail = (await call('GET', `/api/admin/customers/${anna}`)).json().customer;
    expect(detail).toMatchObject({ email: 'anna@example.com', firstName: 'Анна', phone: '+7 900 111-22-33' });
    expect(detail.orderList.map((row: { status: number }) => row.status)).toEqual([5, 2, 1]);
    expect(detail.notes[0]).toMatchObject({ body: 'Asked to ship in a box', author: 'admin@example.com' });
    expect((await call('GET', '/api/admin/customers/999999')).statusCode).toBe(404);
  });

  it('blocks an account: its sessions end, it cannot sign in (told why in its language), and it can be let in again', async () => {
    const signedIn = await signIn('boris@example.com');
    const cookie = { [SESSION_COOKIE]: signedIn.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '' };
    const user = () => shop.app.inject({ method: 'GET', url: '/api/user', cookies: cookie });
    expect((await user()).json().user).toMatchObject({ email: 'boris@example.com' });

    const blocked = await call('POST', `/api/admin/customers/${boris}/block`, { blocked: '1' });
    expect(blocked.json()).toMatchObject({ success: true, blocked: true });
    expect(await shop.db.select().from(sessions).where(eq(sessions.userId, boris))).toEqual([]);
    expect((await user()).json().user).toBeNull();

    const refused = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'accept-language': 'en' },
      payload: { email: 'boris@example.com', password: PASSWORD },
    });
    expect(refused.statusCode).toBe(403);
    expect(JSON.stringify(refused.json())).toContain('blocked');
    // A wrong password does not learn that the account is blocked.
    const wrong = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'boris@example.com', password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);

    await call('POST', `/api/admin/customers/${boris}/block`, { blocked: '0' });
    expect((await signIn('boris@example.com')).statusCode).toBe(200);
    const audit = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'customer'));
    expect(audit.map((entry) => entry.after)).toEqual([{ blocked: true }, { blocked: false }]);
  });

  it('refuses to block a staff account, and refuses every call to shoppers and guests', async () => {
    const [staff] = await shop.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    const refused = await call('POST', `/api/admin/customers/${staff?.id}/block`, { blocked: '1' });
    expect(refused.statusCode).toBe(403);
    const shopper = await signIn('anna@example.com');
    const shopperCookie = {
      [SESSION_COOKIE]: shopper.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '',
    };
    expect((await call('GET', '/api/admin/customers', undefined, shopperCookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/customers', undefined, {})).statusCode).toBe(401);
    expect((await call('POST', `/api/admin/customers/${anna}/block`, { blocked: '1' }, {})).statusCode).toBe(
      401,
    );
  });

  it('exports the customers a search finds as CSV with a BOM and formula-safe cells', async () => {
    await customer({ email: 'formula@example.com', firstName: '=HYPERLINK("http://evil")' });
    const csv = await call('GET', '/api/admin/customers.csv?search=example.com');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    const rows = parse(csv.body.slice(1), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.email)).toEqual([
      'formula@example.com',
      'boris@example.com',
      'anna@example.com',
    ]);
    expect(rows[0]?.first_name).toBe('\'=HYPERLINK("http://evil")');
    expect(rows[2]).toMatchObject({ orders: '3', spent: '4000.00', blocked: '0' });
  });
});
