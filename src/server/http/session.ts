import fastifySession from '@fastify/session';
import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, Session } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Database, Executor } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { hashSecret } from '../security/tokens.ts';

declare module 'fastify' {
  interface Session {
    userId?: number;
    /** Day number of the last sliding renewal, so a busy session is written once a day, not per request. */
    renewedOn?: number;
    /** A staff sign-in whose password passed, waiting for its second step (ADR 0055). */
    secondFactor?: { userId: number; since: number; tries: number };
  }
}

export const SESSION_COOKIE = 'vitrina.sid';
/** Login always remembers: a long-lived session, renewed while it is used. */
export const SESSION_DAYS = 30;
const DAY = 24 * 3600_000;

/**
 * Sessions live in the `sessions` table, so every instance of the shop shares them. The table keys
 * on a hash of the id: reading the table does not give anyone a usable cookie.
 */
class DatabaseSessionStore {
  /**
   * Every request with a cookie reads its session: built once and run by name (Drizzle's
   * `.prepare()`), so neither the shop nor PostgreSQL builds and plans it each time (ADR 0089).
   */
  private readonly read;

  constructor(private readonly db: Database) {
    this.read = db
      .select({ data: sessions.data, expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare('session_read');
  }

  set(id: string, session: Session, callback: (error?: unknown) => void) {
    const expiresAt = session.cookie.expires
      ? new Date(session.cookie.expires)
      : new Date(Date.now() + SESSION_DAYS * DAY);
    const values = {
      data: session as unknown as Record<string, unknown>,
      userId: session.userId ?? null,
      expiresAt,
    };
    this.db
      .insert(sessions)
      .values({ id: hashSecret(id), ...values })
      .onConflictDoUpdate({ target: sessions.id, set: values })
      .then(() => callback(), callback);
  }

  get(id: string, callback: (error: unknown, session?: Session | null) => void) {
    this.read
      .execute({ id: hashSecret(id) })
      .then(
        ([row]) =>
          callback(null, row && row.expiresAt > new Date() ? (row.data as unknown as Session) : null),
        callback,
      );
  }

  destroy(id: string, callback: (error?: unknown) => void) {
    this.db
      .delete(sessions)
      .where(eq(sessions.id, hashSecret(id)))
      .then(() => callback(), callback);
  }
}

export const sessionPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { db: Database; secret: string; secure: boolean }) => {
    await app.register(fastifySession, {
      secret: options.secret,
      cookieName: SESSION_COOKIE,
      store: new DatabaseSessionStore(options.db),
      saveUninitialized: false,
      rolling: false,
      cookie: {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secure,
        maxAge: SESSION_DAYS * DAY,
      },
    });
    // A callback hook, as it waits for nothing: a kept page goes out in its request's turn (page-cache.ts).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (signedOut.has(request)) reply.clearCookie(SESSION_COOKIE, { path: '/' });
      done(null, payload);
    });
    app.addHook('preHandler', async (request) => {
      const today = Math.floor(Date.now() / DAY);
      if (request.session.userId !== undefined && request.session.renewedOn !== today) {
        request.session.touch();
        request.session.renewedOn = today;
      }
    });
  },
  { name: 'vitrina-session' },
);

/** A new session id on sign-in (no fixation), holding the user. */
export async function signIn(request: FastifyRequest, userId: number) {
  await request.session.regenerate();
  request.session.userId = userId;
  request.session.renewedOn = Math.floor(Date.now() / DAY);
}

/** Requests that signed their visitor out: their answer also tells the browser to forget the cookie. */
const signedOut = new WeakSet<FastifyRequest>();

/**
 * Ends the session, and the cookie with it: a browser that kept it would count as a visitor with a
 * session, and get the catalogue pages whose own parts load after hydration (ADR 0048).
 */
export async function signOut(request: FastifyRequest) {
  if (request.session.userId !== undefined || request.session.isSaved()) await request.session.destroy();
  signedOut.add(request);
}

/** Deletes sessions past their expiry; run by a recurring job. */
export async function purgeExpiredSessions(db: Executor, at = new Date()) {
  await db.delete(sessions).where(lt(sessions.expiresAt, at));
}
