import { Link } from 'react-router';
import { imageUrl } from '../../contract/images.ts';
import { PublicPageHead } from '../components/page-head.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/home';

export async function loader({ context }: Route.LoaderArgs) {
  const { week } = (await context.services.catalog.initial(context.locale)).value;
  return { week };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { data, t } = useShop();
  return (
    <div className="home">
      <PublicPageHead title={t('site-title')} description={t('site-description')} path="/" />
      <section className="hero">
        <h1>{t('site-title')}</h1>
        <p>{t('site-description')}</p>
      </section>
      <section aria-labelledby="home-categories">
        <h2 id="home-categories">{t('all-categories')}</h2>
        <ul className="category-tiles">
          {data?.categories.map((category) => (
            <li key={category.id}>
              <Link to={`/category/${category.link}`} prefetch="intent" className="category-tile">
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="home-projects">
        <h2 id="home-projects">{t('all-projects')}</h2>
        <ul className="project-logos">
          {data?.projects.map((project) => (
            <li key={project.id}>
              <Link to={`/project/${project.link}`} prefetch="intent" className="project-logo">
                {project.image ? (
                  <img
                    src={imageUrl('projects', project.image, 160)}
                    srcSet={`${imageUrl('projects', project.image, 160)} 1x, ${imageUrl('projects', project.image, 320)} 2x`}
                    alt=""
                    width={120}
                    height={120}
                    loading="lazy"
                  />
                ) : null}
                <span>{project.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      {loaderData.week.length > 0 ? (
        <section aria-labelledby="home-week">
          <h2 id="home-week">{t('featured-products')}</h2>
          <ProductGrid products={loaderData.week} eagerCount={2} />
        </section>
      ) : null}
    </div>
  );
}
