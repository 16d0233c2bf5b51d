import { revalidateOnNewPath } from '../lib/revalidate.ts';
import { loadSection, SectionPage, sectionMeta } from '../lib/section-page.tsx';
import type { Route } from './+types/category';

export const loader = ({ context, params }: Route.LoaderArgs) =>
  loadSection(context, 'category', params.link);

export const shouldRevalidate = revalidateOnNewPath;

export const meta: Route.MetaFunction = sectionMeta;

export default SectionPage;
