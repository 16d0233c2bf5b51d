import { adminCategoriesResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { revalidateUnlessRefused } from '../../admin/forms.ts';
import { SectionManager, sectionAction } from '../../admin/sections.tsx';
import { AdminErrorBoundary, AdminLoading } from '../../admin/ui.tsx';
import type { Route } from './+types/categories';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(adminCategoriesResponse, '/categories', request);
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return sectionAction('categories', request);
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

export default function CategoriesPage({ loaderData }: Route.ComponentProps) {
  return <SectionManager kind="categories" rows={loaderData.categories} />;
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
