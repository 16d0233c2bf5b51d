import { Link } from 'react-router';
import { imageSrcSet, imageUrl } from '../../contract/images.ts';
import { PublicPageHead } from '../components/page-head.tsx';
import { ComingSoon, ProductGrid } from '../components/product-card.tsx';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/home';

export async function loader({ context }: Route.LoaderArgs) {
  const [initial, categoryPictures, comingSoon] = await Promise.all([
    context.services.catalog.initial(context.locale),
    context.services.catalog.categoryPictures(),
    context.services.catalog.upcoming(context.locale, { kind: 'all' }),
  ]);
  return {
    week: initial.value.week,
    categoryPictures: categoryPictures.value,
    comingSoon: comingSoon.value,
  };
}

/** A tile is about a third of a phone's screen, at most about 220 px wide elsewhere. */
const TILE_SIZES = '(max-width: 559px) 33vw, 220px';

export default function Home({ loaderData }: Route.ComponentProps) {
  const { data, t } = useShop();
  return (
    <div className="home">
      <PublicPageHead title={t('site-title')} description={t('site-description')} path="/" />
      <section className="hero">
        <h1>{t('site-title')}</h1>
        <p>{t('site-description')}</p>
      </section>
      <ComingSoon products={loaderData.comingSoon} id="home-coming-soon" />
      <section aria-labelledby="home-categories">
        <div className="section-head">
          <h2 id="home-categories">{t('all-categories')}</h2>
          <Link to="/products" prefetch="intent">
            {t('all-products')}
          </Link>
        </div>
        <ul className="category-tiles">
          {data?.categories.map((category) => {
            const picture = loaderData.categoryPictures[category.id];
            return (
              <li key={category.id}>
                <Link to={`/category/${category.link}`} prefetch="intent" className="category-tile">
                  {picture ? (
                    <img
                      src={imageUrl('products', picture, 320)}
                      srcSet={imageSrcSet('products', picture)}
                      sizes={TILE_SIZES}
                      alt=""
                      width={320}
                      height={320}
                      loading="lazy"
                      decoding="async"
                    />
                  ) : (
                    <span className="category-tile__blank" />
                  )}
                  <span className="category-tile__name">{category.name}</span>
                </Link>
              </li>
            );
          })}
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
