import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { StaffRole, UserRole } from '../../contract/accounts.ts';
import type { Locale } from '../../contract/locale.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { VERIFY_TOKEN_HOURS } from '../accounts/service.ts';
import { hashSecret, newSecret } from '../accounts/tokens.ts';
import type { Database, Executor } from '../db/client.ts';
import { authTokens, sessions, users } from '../db/schema.ts';
import { Conflict, NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { recordAudit } from './audit.ts';

/**
 * Staff accounts: admins invite managers and admins by e-mail, change their roles and take them
 * off the staff. The shop always keeps one admin, and nobody changes their own role.
 */

export async function listStaff(db: Executor) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      firstName: users.firstName,
      lastName: users.lastName,
      confirmed: sql<boolean>`${users.emailVerifiedAt} is not null`,
    })
    .from(users)
    .where(ne(users.role, 'customer'))
    .orderBy(asc(users.email));
  return rows.map((row) => ({ ...row, name: `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim() }));
}

const staffRefused = (key: string) => new Conflict(key, { role: [key] }, key);

/**
 * Gives an account a staff role, creating it when the address is new. The person gets a mail in
 * `locale` with a link to set their password (a reset token, valid as long as an e-mail
 * confirmation; following it also confirms the address).
 */
export async function inviteStaff(
  db: Database,
  actorId: number,
  input: { email: string; role: StaffRole; locale: Locale },
  context: { publicUrl: string; shop?: MailShop },
) {
  const email = input.email.trim();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .for('update');
    if (existing && existing.role !== 'customer') throw staffRefused('staff-already');
    const [account] = existing
      ? await tx
          .update(users)
          .set({ role: input.role, updatedAt: new Date() })
          .where(eq(users.id, existing.id))
          .returning({ id: users.id })
      : await tx
          .insert(users)
          .values({
            email,
            role: input.role,
            locale: input.locale,
            passwordHash: await hashPassword(newSecret()),
          })
          .returning({ id: users.id });
    if (!account) throw new Error('the staff account was not stored');
    const token = newSecret();
    await tx.insert(authTokens).values({
      userId: account.id,
      purpose: 'reset',
      tokenHash: hashSecret(token),
      expiresAt: new Date(Date.now() + VERIFY_TOKEN_HOURS * 3600_000),
    });
    await queueMail(
      tx,
      {
        template: 'staff-invite',
        locale: input.locale,
        to: email,
        data: {
          role: input.role,
          link: `${context.publicUrl}/reset?token=${token}&email=${encodeURIComponent(email)}`,
          expiresInHours: VERIFY_TOKEN_HOURS,
        },
      },
      context.shop,
    );
    await recordAudit(tx, {
      actorId,
      action: existing ? 'update' : 'create',
      entity: 'staff',
      entityId: account.id,
      before: existing ? { role: existing.role } : undefined,
      after: { email, role: input.role },
    });
    return { id: account.id };
  });
}

/**
 * Changes a staff member's role, or takes them off the staff (`customer`: their sessions end). The
 * last admin stays an admin, and nobody changes their own role.
 */
export async function setStaffRole(db: Database, actorId: number, staffId: number, role: UserRole) {
  if (staffId === actorId) throw staffRefused('staff-own-role');
  return db.transaction(async (tx) => {
    // Admins are counted under a lock, so two admins cannot demote each other at once.
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, 'admin'))
      .orderBy(asc(users.id))
      .for('update');
    const [member] = await tx
      .select({ role: users.role })
      .from(users)
      .where(and(eq(users.id, staffId), ne(users.role, 'customer')));
    if (!member) throw new NotFound('not-found', { staff: ['not-found'] });
    if (member.role === 'admin' && role !== 'admin' && admins.length <= 1)
      throw staffRefused('staff-last-admin');
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, staffId));
    if (role === 'customer') await tx.delete(sessions).where(eq(sessions.userId, staffId));
    await recordAudit(tx, {
      actorId,
      action: 'update',
      entity: 'staff',
      entityId: staffId,
      before: { role: member.role },
      after: { role },
    });
    return { role };
  });
}
