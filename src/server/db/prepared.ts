import type { Executor } from './client.ts';

/**
 * A statement built once per connection and run by name with placeholders (Drizzle's `.prepare()`
 * with `sql.placeholder`, ADR 0089 and 0095): neither the shop nor PostgreSQL builds and plans it
 * again on that connection. `build` receives the handle the statement is first asked for on: the
 * database (a pooled statement), or a transaction, whose savepoints share its connection, so one
 * built statement serves every order of a placement batch.
 */
export function preparedOnce<Statement>(build: (db: Executor) => Statement): (db: Executor) => Statement {
  // Keyed by the session: a transaction and its savepoints share one, and it holds the connection.
  const built = new WeakMap<object, Statement>();
  return (db) => {
    const session = db._.session;
    let statement = built.get(session);
    if (!statement) {
      statement = build(db);
      built.set(session, statement);
    }
    return statement;
  };
}
