import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../accounts/passwords.ts';
import { mails, products, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { adminAuditRoutes } from './audit-routes.ts';
import { adminCatalogueRoutes } from './catalogue-routes.ts';
import { adminContentRoutes } from './content-routes.ts';
import { adminDashboardRoutes } from './dashboard-routes.ts';
import { adminOrderPaymentRoutes } from './order-payment-routes.ts';
import { adminOrderRoutes } from './order-routes.ts';
import { adminProductRoutes } from './product-routes.ts';
import { adminSearchRoutes } from './search-routes.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let admin: Record<string, string>;
let manager: Record<string, string>;
const PASSWORD = 'staff password 1';

async function signedIn(email: string, role: 'manager' | 'admin' | 'customer') {
  await shop.db
    .insert(users)
    .values({ email, role, passwordHash: await hashPassword(PASSWORD), emailVerifiedAt: new Date() });
  const login = await shop.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: PASSWORD },
  });
  return { [SESSION_COOKIE]: login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '' };
}

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  cookies: Record<string, string>,
  payload?: object,
  locale = 'en',
) => shop.app.inject({ method, url, cookies, payload, headers: { 'accept-language': locale } });

const idOf = async (email: string) =>
  (await shop.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? 0;

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  admin = await signedInAdmin(shop);
  manager = await signedIn('manager@example.com', 'manager');
});
afterAll(() => shop.close());

describe('staff roles', () => {
  it('lets a manager run the catalogue and orders but not delete data or touch staff (403 admin-only, in their language)', async () => {
    const wolf = fixtures.id('wolf-shirt');
    expect((await call('GET', '/api/admin/products', manager)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/orders', manager)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/customers', manager)).statusCode).toBe(200);

    const deletion = await call('DELETE', `/api/admin/products/${wolf}`, manager, undefined, 'ru');
    expect(deletion.statusCode).toBe(403);
    expect(deletion.json().message).toBe('Это может сделать только администратор.');
    expect(await shop.db.select().from(products).where(eq(products.id, wolf))).toHaveLength(1);

    for (const [method, url] of [
      ['GET', '/api/admin/staff'],
      ['POST', '/api/admin/staff'],
      ['PATCH', `/api/admin/staff/${await idOf('admin@example.com')}`],
    ] as const) {
      const refused = await call(method, url, manager, { email: 'x@example.com', role: 'admin' });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses a manager every DELETE of the back office before reading its input', async () => {
    const deletions = [
      adminCatalogueRoutes,
      adminProductRoutes,
      adminOrderRoutes,
      adminOrderPaymentRoutes,
      adminDashboardRoutes,
      adminAuditRoutes,
      adminSearchRoutes,
      adminContentRoutes,
    ]
      .flatMap((area) => area({} as never))
      .filter((route) => route.method === 'DELETE');
    expect(deletions.length).toBeGreaterThanOrEqual(7);
    for (const route of deletions) {
      const refused = await call('DELETE', route.url.replace(':id', '1'), manager, {});
      expect(refused.statusCode, route.url).toBe(403);
      expect(refused.json().message).toBe('Only an administrator can do this.');
    }
  });

  const tokenOf = async (to: string) => {
    const sent = await shop.db.select().from(mails).where(eq(mails.to, to));
    return sent.at(-1)?.text.match(/staff-invitation\?token=([\w-]+)/)?.[1] ?? '';
  };

  it('invites a new address as manager: a pending invitation and a mail in the admin’s language; the account registered with it accepts, and the audit names both', async () => {
    const invited = await call(
      'POST',
      '/api/admin/staff',
      admin,
      { email: 'new.manager@example.com', role: 'manager' },
      'ru',
    );
    expect(invited.statusCode).toBe(200);
    // No account is made or changed: the invitation waits.
    expect(await idOf('new.manager@example.com')).toBe(0);
    const [mail] = await shop.db.select().from(mails).where(eq(mails.to, 'new.manager@example.com'));
    expect(mail?.subject).toBe('Приглашение в управление магазином');
    expect(mail?.text).toContain('Пока вы не примете приглашение, ничего не меняется');
    const token = await tokenOf('new.manager@example.com');
    expect(token).not.toBe('');
    const listed = (await call('GET', '/api/admin/staff', admin)).json();
    expect(listed.invitations).toMatchObject([
      { email: 'new.manager@example.com', role: 'manager', invitedBy: 'admin@example.com' },
    ]);
    expect(
      (await shop.app.inject({ method: 'GET', url: `/api/staff-invitation?token=${token}` })).json(),
    ).toMatchObject({ invitation: { email: 'new.manager@example.com', role: 'manager' } });

    // The invitee registers with the address, then accepts signed in: the back office opens.
    const newcomer = await signedIn('new.manager@example.com', 'customer');
    expect((await call('GET', '/api/admin/orders', newcomer)).statusCode).toBe(403);
    const accepted = await call('POST', '/api/staff-invitation', newcomer, { token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await call('GET', '/api/admin/orders', newcomer)).statusCode).toBe(200);
    // The link works once.
    expect((await call('POST', '/api/staff-invitation', newcomer, { token })).statusCode).toBe(404);

    const staff = (await call('GET', '/api/admin/staff', admin)).json();
    expect(staff.staff.map((member: { email: string; role: string }) => [member.email, member.role])).toEqual(
      [
        ['admin@example.com', 'admin'],
        ['manager@example.com', 'manager'],
        ['new.manager@example.com', 'manager'],
      ],
    );
    expect(staff.invitations).toEqual([]);
    const again = await call('POST', '/api/admin/staff', admin, {
      email: 'NEW.manager@example.com',
      role: 'admin',
    });
    expect(again.statusCode).toBe(409);
    const invitation = JSON.stringify(
      (await call('GET', '/api/admin/audit?entity=staff-invitation', admin)).json(),
    );
    expect(invitation).toContain('"actor":"admin@example.com"');
    const acceptance = JSON.stringify((await call('GET', '/api/admin/audit?entity=staff', admin)).json());
    expect(acceptance).toContain('"actor":"new.manager@example.com"');
  });

  it('an invitation to a customer’s address grants nothing until she accepts it signed in as herself; a revoked one never does', async () => {
    const customer = await signedIn('customer@example.com', 'customer');
    expect(
      (await call('POST', '/api/admin/staff', admin, { email: 'customer@example.com', role: 'manager' }))
        .statusCode,
    ).toBe(200);
    const revokedToken = await tokenOf('customer@example.com');
    // Her old password does not open the back office while the invitation is pending.
    const relogin = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'customer@example.com', password: PASSWORD },
    });
    expect(relogin.json().user).toMatchObject({ role: 'customer', isAdmin: false });
    expect((await call('GET', '/api/admin/orders', customer)).statusCode).toBe(403);

    // Revoked: its link stops working.
    const [pending] = (await call('GET', '/api/admin/staff', admin)).json().invitations as Array<{
      id: number;
    }>;
    expect((await call('DELETE', `/api/admin/staff/invitations/${pending?.id}`, manager)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/admin/staff/invitations/${pending?.id}`, admin)).statusCode).toBe(200);
    expect((await call('POST', '/api/staff-invitation', customer, { token: revokedToken })).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/api/admin/orders', customer)).statusCode).toBe(403);

    // A new one: somebody else signed in cannot take it; she can.
    await call('POST', '/api/admin/staff', admin, { email: 'customer@example.com', role: 'admin' });
    const token = await tokenOf('customer@example.com');
    const stranger = await signedIn('stranger@example.com', 'customer');
    const taken = await call('POST', '/api/staff-invitation', stranger, { token });
    expect(taken.statusCode).toBe(403);
    expect(taken.json().message).toContain('another address');
    expect((await call('POST', '/api/staff-invitation', customer, { token })).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/orders', customer)).statusCode).toBe(200);
  });

  it('changes roles (audited with who, before and after), takes staff off, and always keeps one admin', async () => {
    const customerId = await idOf('customer@example.com');
    const adminId = await idOf('admin@example.com');

    const own = await call('PATCH', `/api/admin/staff/${adminId}`, admin, { role: 'manager' });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toContain('own role');

    // The customer, made admin, is taken off again; then two admins demote each other at once:
    // one of them stays admin.
    expect(
      (await call('PATCH', `/api/admin/staff/${customerId}`, admin, { role: 'customer' })).statusCode,
    ).toBe(200);
    // The role change is audited with who made it, the role before and the role after.
    const audited = (
      await call('GET', `/api/admin/audit?entity=staff&entityId=${customerId}`, admin)
    ).json() as { entries: Array<{ actor: string; action: string; before: unknown; after: unknown }> };
    expect(audited.entries[0]).toMatchObject({
      actor: 'admin@example.com',
      action: 'update',
      after: { role: 'customer' },
    });
    expect(audited.entries[0]?.before).not.toEqual({ role: 'customer' });
    const otherAdmin = await signedIn('second.admin@example.com', 'admin');
    const otherId = await idOf('second.admin@example.com');
    const answers = await Promise.all([
      call('PATCH', `/api/admin/staff/${otherId}`, admin, { role: 'manager' }),
      call('PATCH', `/api/admin/staff/${adminId}`, otherAdmin, { role: 'manager' }),
    ]);
    // The later one is refused: as the last admin's demotion (409) or, when the first had already
    // made its author a manager, as a manager's call (403).
    const [done, refused] = answers.map((answer) => answer.statusCode).sort();
    expect(done).toBe(200);
    expect([403, 409]).toContain(refused);
    const admins = await shop.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
    const stillAdmin = admins[0]?.id === adminId ? admin : otherAdmin;
    expect(
      (await call('PATCH', `/api/admin/staff/${customerId}`, stillAdmin, { role: 'owner' })).statusCode,
    ).toBe(422);
    expect(
      (await call('PATCH', `/api/admin/staff/${customerId}`, stillAdmin, { role: 'manager' })).statusCode,
    ).toBe(404);
  });
});
