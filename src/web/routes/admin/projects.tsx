import { adminProjectsResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { revalidateUnlessRefused } from '../../admin/forms.ts';
import { SectionManager, sectionAction } from '../../admin/sections.tsx';
import { AdminErrorBoundary, AdminLoading } from '../../admin/ui.tsx';
import type { Route } from './+types/projects';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(adminProjectsResponse, '/projects', request);
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return sectionAction('projects', request);
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

export default function ProjectsPage({ loaderData }: Route.ComponentProps) {
  return <SectionManager kind="projects" rows={loaderData.projects} />;
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
