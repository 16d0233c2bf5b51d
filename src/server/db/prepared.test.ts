import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.ts';
import type { DatabaseConnection, Executor } from './client.ts';
import { preparedOnce } from './prepared.ts';
import { users } from './schema.ts';

describe('preparedOnce', () => {
  let connection: DatabaseConnection;
  beforeAll(async () => {
    connection = await createTestDatabase();
  });
  afterAll(() => connection.close());

  it('builds a statement once per connection: a transaction and its savepoints share one, and it runs with the values it is given', async () => {
    const built: Executor[] = [];
    const userEmail = preparedOnce((db) => {
      built.push(db);
      return db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.email, sql.placeholder('email')))
        .prepare('prepared_test_user_email');
    });
    const { db } = connection;
    await db.insert(users).values([
      { email: 'first@example.com', passwordHash: 'x' },
      { email: 'second@example.com', passwordHash: 'x' },
    ]);

    expect(await userEmail(db).execute({ email: 'first@example.com' })).toEqual([
      { email: 'first@example.com' },
    ]);
    expect(await userEmail(db).execute({ email: 'nobody@example.com' })).toEqual([]);
    expect(built).toEqual([db]);

    await db.transaction(async (transaction) => {
      await transaction.transaction(async (savepoint) => {
        expect(await userEmail(savepoint).execute({ email: 'second@example.com' })).toEqual([
          { email: 'second@example.com' },
        ]);
      });
      await transaction.transaction(async (savepoint) => {
        expect(await userEmail(savepoint).execute({ email: 'first@example.com' })).toHaveLength(1);
      });
      expect(await userEmail(transaction).execute({ email: 'second@example.com' })).toHaveLength(1);
    });
    // The pool's statement, then one for the transaction (built on its first savepoint), then one
    // for the next transaction.
    expect(built).toHaveLength(2);
    await db.transaction(async (transaction) => {
      await userEmail(transaction).execute({ email: 'first@example.com' });
    });
    expect(built).toHaveLength(3);
  });
});
