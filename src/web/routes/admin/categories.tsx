import { loadAdmin } from '../../admin/api.ts';
import { SectionManager } from '../../admin/sections.tsx';
import type { AdminCategory } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading } from '../../admin/ui.tsx';
import type { Route } from './+types/categories';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdmin<{ categories: AdminCategory[] }>('/categories', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

export default function CategoriesPage({ loaderData }: Route.ComponentProps) {
  return <SectionManager kind="categories" rows={loaderData.categories} />;
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
