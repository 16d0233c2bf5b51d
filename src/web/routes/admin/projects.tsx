import { loadAdmin } from '../../admin/api.ts';
import { SectionManager } from '../../admin/sections.tsx';
import type { AdminProject } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading } from '../../admin/ui.tsx';
import type { Route } from './+types/projects';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdmin<{ projects: AdminProject[] }>('/projects', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

export default function ProjectsPage({ loaderData }: Route.ComponentProps) {
  return <SectionManager kind="projects" rows={loaderData.projects} />;
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
