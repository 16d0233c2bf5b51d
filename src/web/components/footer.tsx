import { Link } from 'react-router';
import { useShop } from '../lib/shop.ts';
import { LinkList } from './link-list.tsx';
import { SocialLink } from './social-link.tsx';

const SOCIAL_LINKS = [
  { type: 'vk', name: 'VK', href: 'https://vk.com/vitrina.shop' },
  { type: 'telegram', name: 'Telegram', href: 'https://t.me/vitrina_shop' },
  { type: 'youtube', name: 'YouTube', href: 'https://www.youtube.com/@vitrina.shop' },
  { type: 'twitter', name: 'X (Twitter)', href: 'https://x.com/vitrina_shop' },
  { type: 'instagram', name: 'Instagram', href: 'https://www.instagram.com/vitrina.shop' },
  { type: 'discord', name: 'Discord', href: 'https://discord.gg/vitrina' },
] as const;

export function Footer() {
  const { data, t } = useShop();
  const email = data?.shopEmail ?? 'shop@vitrina.example';
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <section aria-labelledby="footer-contacts">
          <h2 id="footer-contacts">{t('contacts')}</h2>
          <p>
            {t('shop-email')}: <a href={`mailto:${email}`}>{email}</a>
          </p>
          <p>
            <Link to="/feedback">{t('feedback')}</Link>
          </p>
        </section>
        <section aria-labelledby="footer-information">
          <h2 id="footer-information">{t('information')}</h2>
          <LinkList
            links={[
              ['/profile', 'profile'],
              ['/cart', 'cart'],
              ['/shipping#payment', 'payment-and-shipping'],
              ['/about', 'about'],
              ['/partners', 'partners'],
              ['/privacy-policy', 'privacy-policy'],
            ]}
          />
        </section>
        <section aria-labelledby="footer-socials">
          <h2 id="footer-socials">{t('follow-us')}</h2>
          <ul className="social-links">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.type}>
                <SocialLink type={social.type} href={social.href} name={social.name} />
              </li>
            ))}
          </ul>
        </section>
      </div>
      <p className="site-footer__copyright">
        © {new Date().getFullYear()} {t('site-title')}
      </p>
    </footer>
  );
}
