import type { ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routeUrls } from './ssr.ts';

/** A server bundle's route table, as the build lists it (modules left out). */
const bundle = (routes: Array<{ id: string; parentId?: string; path?: string; index?: boolean }>) =>
  Object.fromEntries(routes.map((route) => [route.id, route])) as unknown as ServerBuild['routes'];

describe('the paths a server bundle answers', () => {
  it('joins nested paths, gives each its .data twin and leaves the root out', () => {
    const routes = bundle([
      { id: 'root', path: '' },
      { id: 'admin', parentId: 'root', path: 'admin' },
      { id: 'dashboard', parentId: 'admin', index: true },
      { id: 'order', parentId: 'admin', path: 'orders/:id' },
      { id: 'unknown', parentId: 'admin', path: '*' },
    ]);
    expect(routeUrls(routes).sort()).toEqual([
      '/admin',
      '/admin.data',
      '/admin/*',
      '/admin/orders/:id',
      '/admin/orders/:id.data',
    ]);
  });

  it('spells an optional segment out with and without it', () => {
    const routes = bundle([
      { id: 'root', path: '' },
      { id: 'result', parentId: 'root', path: 'order/result/:provider?' },
      { id: 'sitemap', parentId: 'root', path: 'sitemap.xml' },
    ]);
    expect(routeUrls(routes).sort()).toEqual([
      '/order/result',
      '/order/result.data',
      '/order/result/:provider',
      '/order/result/:provider.data',
      '/sitemap.xml',
      '/sitemap.xml.data',
    ]);
  });
});
