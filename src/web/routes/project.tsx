import { loadSection, SectionPage } from '../lib/section-page.tsx';
import type { Route } from './+types/project';

export const loader = ({ context, params, url }: Route.LoaderArgs) =>
  loadSection(context, url, 'project', params.link);

export default SectionPage;
