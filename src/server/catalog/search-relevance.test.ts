import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHOLE_LIST } from '../../contract/shop.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { insertDemoCatalogue } from '../seed/seed.ts';
import { createTestDatabase } from '../testing/database.ts';
import { RELEVANCE_SET, type RelevanceCase } from '../testing/search-relevance.data.ts';
import { listProducts } from './service.ts';

/**
 * The labelled relevance set over the demo catalogue (issue 17): at least 95% of the queries must
 * show what they are labelled with among the first five results. The failures are printed.
 */

const REQUIRED_SHARE = 0.95;
const FIRST = 5;

let connection: DatabaseConnection;

beforeAll(async () => {
  connection = await createTestDatabase();
  await insertDemoCatalogue(connection.db, { projects: [], products: [] });
}, 60_000);

afterAll(async () => {
  await connection?.close();
});

/** Why a case fails, or null when the first five results show what it is labelled with. */
function failure(found: string[], labelled: RelevanceCase): string | null {
  const shown = found.slice(0, FIRST);
  if (shown.length === 0) return 'found nothing';
  const missing = (labelled.top ?? []).filter((link) => !shown.includes(link));
  if (missing.length > 0) return `missing ${missing.join(', ')}`;
  if (labelled.first && shown[0] !== labelled.top?.[0]) return `${labelled.top?.[0]} is not first`;
  const stray = labelled.within ? shown.filter((link) => !labelled.within?.includes(link)) : [];
  if (stray.length > 0) return `unexpected ${stray.join(', ')}`;
  return null;
}

describe('search relevance over the demo catalogue', () => {
  it(`shows the labelled products among the first ${FIRST} results for at least ${REQUIRED_SHARE * 100}% of the set`, async () => {
    expect(RELEVANCE_SET.length).toBeGreaterThanOrEqual(60);
    const failures: string[] = [];
    for (const labelled of RELEVANCE_SET) {
      const list = await listProducts(
        connection.db,
        labelled.locale,
        { kind: 'search', text: labelled.query },
        WHOLE_LIST,
      );
      const why = failure(
        list.products.map((product) => product.link),
        labelled,
      );
      if (why)
        failures.push(
          `${labelled.locale} "${labelled.query}" (${labelled.kind}): ${why} — got ${list.products
            .slice(0, FIRST)
            .map((p) => p.link)
            .join(', ')}`,
        );
    }
    const share = (RELEVANCE_SET.length - failures.length) / RELEVANCE_SET.length;
    console.log(
      `search relevance: ${RELEVANCE_SET.length - failures.length}/${RELEVANCE_SET.length} (${(share * 100).toFixed(1)}%)${failures.map((line) => `\n  ✗ ${line}`).join('')}`,
    );
    expect(share).toBeGreaterThanOrEqual(REQUIRED_SHARE);
  });
});
