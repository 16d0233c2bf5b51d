import { describe, expect, it } from 'vitest';
import { createCatalogCache } from './cache.ts';
import { createChangeLog } from './changes.ts';

describe('the catalogue cache', () => {
  it('keeps what the API sends, read back: the pages render the JSON the API answers (ADR 0098)', async () => {
    const cache = createCatalogCache({ changes: createChangeLog() });
    const view = { id: 7, link: 'wolf-tee', price: 1500 };
    const loaded = { product: { ...view, releaseAt: new Date('2026-12-01T09:00:00Z'), note: undefined } };
    const answer = await cache.remember(
      'product:en:wolf-tee',
      async () => loaded,
      () => ['p:7'],
    );

    expect(answer.value).not.toBe(loaded);
    expect(answer.value).toEqual({
      product: { id: 7, link: 'wolf-tee', price: 1500, releaseAt: '2026-12-01T09:00:00.000Z' },
    });
    expect(JSON.parse(answer.json)).toEqual({ success: true, ...answer.value });
    // A hit answers the kept value itself, without loading again.
    const again = await cache.remember(
      'product:en:wolf-tee',
      async () => {
        throw new Error('loaded again');
      },
      () => ['p:7'],
    );
    expect(again.value).toBe(answer.value);
  });
});
