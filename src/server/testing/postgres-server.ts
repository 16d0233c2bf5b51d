import pg from 'pg';

/** One statement on a PostgreSQL server's maintenance connection (CREATE and DROP DATABASE). */
export async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
