import { and, asc, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { StaffRole, UserRole } from '../../contract/accounts.ts';
import type { Locale } from '../../contract/locale.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { sessions, staffInvitations, users } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { hashSecret, newSecret } from '../security/tokens.ts';

/**
 * Staff accounts: admins invite managers and admins by e-mail (an invitation grants nothing until
 * accepted), change their roles and take them off the staff. The shop always keeps one admin, and
 * nobody changes their own role.
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

/** How long an invitation link works. */
export const STAFF_INVITATION_HOURS = 72;

const pending = (now: Date) =>
  and(
    isNull(staffInvitations.acceptedAt),
    isNull(staffInvitations.revokedAt),
    gt(staffInvitations.expiresAt, now),
  );

/**
 * Invites an address to the staff (ADR 0056): a pending invitation and a mail in `locale` with
 * its link. Nothing is granted until the owner of the address accepts it signed in as that
 * address, whoever owns it (a customer's account stays a customer's until then). A new invitation
 * to the same address replaces a pending one, whose link stops working.
 */
export async function inviteStaff(
  db: Database,
  actorId: number,
  input: { email: string; role: StaffRole; locale: Locale },
  context: { publicUrl: string; shop?: MailShop },
) {
  const email = input.email.trim();
  const now = new Date();
  return db.transaction(async (tx) => {
    const [staff] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.role, 'customer')));
    if (staff) throw staffRefused('staff-already');
    await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(and(sql`lower(${staffInvitations.email}) = ${email.toLowerCase()}`, pending(now)));
    const token = newSecret();
    const [invitation] = await tx
      .insert(staffInvitations)
      .values({
        email,
        role: input.role,
        tokenHash: hashSecret(token),
        invitedBy: actorId,
        expiresAt: new Date(now.getTime() + STAFF_INVITATION_HOURS * 3600_000),
        createdAt: now,
      })
      .returning({ id: staffInvitations.id });
    if (!invitation) throw new Error('the invitation was not stored');
    await queueMail(
      tx,
      {
        template: 'staff-invite',
        locale: input.locale,
        to: email,
        data: {
          role: input.role,
          link: `${context.publicUrl}/staff-invitation?token=${token}`,
          expiresInHours: STAFF_INVITATION_HOURS,
        },
      },
      context.shop,
    );
    await recordAudit(tx, {
      actorId,
      action: 'create',
      entity: 'staff-invitation',
      entityId: invitation.id,
      after: { email, role: input.role },
    });
    return { invitation: invitation.id };
  });
}

/** Invitations not yet accepted, revoked or expired, newest first, with who sent them. */
export async function listInvitations(db: Executor, now = new Date()) {
  return db
    .select({
      id: staffInvitations.id,
      email: staffInvitations.email,
      role: staffInvitations.role,
      invitedBy: users.email,
      expiresAt: staffInvitations.expiresAt,
      createdAt: staffInvitations.createdAt,
    })
    .from(staffInvitations)
    .leftJoin(users, eq(users.id, staffInvitations.invitedBy))
    .where(pending(now))
    .orderBy(desc(staffInvitations.id));
}

/** Revokes a pending invitation: its link stops working. */
export async function revokeInvitation(db: Database, actorId: number, id: number) {
  const now = new Date();
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(staffInvitations)
      .set({ revokedAt: now })
      .where(and(eq(staffInvitations.id, id), pending(now)))
      .returning({ email: staffInvitations.email, role: staffInvitations.role });
    if (!revoked) throw new NotFound('staff-invitation-gone', { invitation: ['staff-invitation-gone'] });
    await recordAudit(tx, {
      actorId,
      action: 'delete',
      entity: 'staff-invitation',
      entityId: id,
      before: revoked,
    });
  });
}

const invitationGone = () =>
  new NotFound('staff-invitation-gone', { token: ['staff-invitation-gone'] }, 'staff-invitation-gone');

/** What an invitation link offers (address and role), while it is pending. */
export async function invitationByToken(db: Executor, token: string) {
  const [invitation] = await db
    .select({ email: staffInvitations.email, role: staffInvitations.role })
    .from(staffInvitations)
    .where(and(eq(staffInvitations.tokenHash, hashSecret(token)), pending(new Date())));
  if (!invitation) throw invitationGone();
  return invitation;
}

/**
 * Accepts an invitation for the signed-in account, which must be the invited address: its role
 * becomes the invitation's (the link, mailed to that address, also confirms it). Refused when the
 * link is used, revoked or expired, or when another account is signed in.
 */
export async function acceptInvitation(db: Database, userId: number, token: string) {
  const now = new Date();
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .select()
      .from(staffInvitations)
      .where(and(eq(staffInvitations.tokenHash, hashSecret(token)), pending(now)))
      .for('update');
    if (!invitation) throw invitationGone();
    const [account] = await tx
      .select({ email: users.email, role: users.role })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!account || account.email.toLowerCase() !== invitation.email.toLowerCase())
      throw new Forbidden('staff-invitation-other-address', {}, 'staff-invitation-other-address');
    if (account.role !== 'customer') throw staffRefused('staff-already');
    await tx
      .update(users)
      .set({
        role: invitation.role,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    await tx
      .update(staffInvitations)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(eq(staffInvitations.id, invitation.id));
    await recordAudit(tx, {
      actorId: userId,
      action: 'update',
      entity: 'staff',
      entityId: userId,
      before: { role: account.role },
      after: { role: invitation.role, invitation: invitation.id },
    });
    return { role: invitation.role };
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
