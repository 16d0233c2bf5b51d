import { loadSection, SectionPage, sectionMeta } from '../lib/section-page.tsx';
import type { Route } from './+types/project';

export const loader = ({ context, request, params }: Route.LoaderArgs) =>
  loadSection(context, request, 'project', params.link);

export const meta: Route.MetaFunction = sectionMeta;

export default SectionPage;
