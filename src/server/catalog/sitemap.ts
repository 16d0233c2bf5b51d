import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { products, projects } from '../db/schema.ts';

export interface ProductLink {
  link: string;
  updatedAt: Date;
}

/** Every product a shopper can open (visible, in a visible project), for sitemap.xml. */
export function listProductLinks(db: Executor): Promise<ProductLink[]> {
  return db
    .select({ link: products.link, updatedAt: products.updatedAt })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(eq(products.visible, true), eq(projects.visible, true)))
    .orderBy(asc(products.position), asc(products.id));
}
