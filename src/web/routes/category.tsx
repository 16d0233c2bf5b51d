import { loadSection, SectionPage } from '../lib/section-page.tsx';
import type { Route } from './+types/category';

export const loader = ({ context, params, url }: Route.LoaderArgs) =>
  loadSection(context, url, 'category', params.link);

export default SectionPage;
