import { index, type RouteConfig, route } from '@react-router/dev/routes';

/** One module per URL of the spec (section 2). */
export default [
  index('routes/home.tsx'),
  route('category/:link', 'routes/category.tsx'),
  route('project/:link', 'routes/project.tsx'),
  route('search', 'routes/search-form.ts'),
  route('search/:search', 'routes/search.tsx'),
  route('product/:link', 'routes/product.tsx'),
  route('shipping', 'routes/shipping.tsx'),
  route('payment', 'routes/payment.tsx'),
  route('about', 'routes/about.tsx'),
  route('partners', 'routes/partners.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('forbidden', 'routes/forbidden.tsx'),
  route('locale', 'routes/locale.ts'),
  route('overlay', 'routes/overlay.ts'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('manifest.webmanifest', 'routes/manifest.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
