import { imageUrl } from '../../contract/images.ts';
import type { Locale } from '../../contract/locale.ts';
import type { Partner, PartnerSocial } from '../../contract/partners.ts';
import type { KNOWN_SOCIALS } from '../components/icons.tsx';
import { PublicPageHead } from '../components/page-head.tsx';
import { SocialLink } from '../components/social-link.tsx';
import { useShop } from '../lib/shop.ts';
import type { Route } from './+types/partners';

export async function loader({ context }: Route.LoaderArgs) {
  const partners: Partner[] = await context.services.partners.list(context.locale);
  return { partners };
}

const content: Record<Locale, { description: string; intro: string }> = {
  ru: {
    description:
      'Партнёры Витрины: студии, художники и мастерские, вместе с которыми мы делаем лимитированный мерч по играм. Контакты и ссылки.',
    intro:
      'Студии, художники и мастерские, с которыми мы делаем наш мерч. Если хотите выпустить вещи по своей игре или предложить сотрудничество — напишите нам или им напрямую.',
  },
  en: {
    description:
      'Vitrina’s partners: the studios, artists and workshops we make limited-edition game merch with. Contacts and links.',
    intro:
      'The studios, artists and workshops we make our merch with. If you would like merch for your own game or want to work together, write to us, or to them directly.',
  },
};

/** Names of the networks the spec gives an icon; any other network is named by its link's host. */
const NETWORK_NAMES: Record<(typeof KNOWN_SOCIALS)[number], string> = {
  vk: 'VK',
  twitter: 'X (Twitter)',
  steam: 'Steam',
  youtube: 'YouTube',
  instagram: 'Instagram',
  facebook: 'Facebook',
};

const isKnownNetwork = (type: string): type is keyof typeof NETWORK_NAMES => type in NETWORK_NAMES;

/** An absolute http(s) address: a link typed without its scheme gets https://. */
const webAddress = (link: string) =>
  /^https?:\/\//i.test(link) ? link : `https://${link.replace(/^\/+/, '')}`;

const hostOf = (link: string) => {
  try {
    return new URL(link).host.replace(/^www\./, '');
  } catch {
    return link;
  }
};

const phoneHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** A Telegram handle as written by the admin (`@name`, `name` or a t.me address) and its link. */
function telegramContact(value: string) {
  const handle = value
    .replace(/^https?:\/\//i, '')
    .replace(/^(www\.)?(t|telegram)\.me\//i, '')
    .replace(/^@/, '')
    .replace(/\/+$/, '');
  return { handle: `@${handle}`, href: `https://t.me/${handle}` };
}

function networkName(social: PartnerSocial) {
  return isKnownNetwork(social.type) ? NETWORK_NAMES[social.type] : hostOf(webAddress(social.link));
}

function PartnerCard({ partner }: { partner: Partner }) {
  const { t } = useShop();
  const headingId = `partner-${partner.id}`;
  const telegram = partner.telegram ? telegramContact(partner.telegram) : null;
  const hasContacts = Boolean(
    partner.email ||
      partner.link ||
      partner.phone_number ||
      partner.phone_number_mobile ||
      telegram ||
      partner.messenger,
  );
  return (
    <article className="partner-card" aria-labelledby={headingId}>
      {partner.image ? (
        <img
          className="partner-card__image"
          src={imageUrl('partners', partner.image, 640)}
          alt={partner.name}
          width={640}
          height={400}
          loading="lazy"
          decoding="async"
        />
      ) : null}
      <h2 id={headingId} className="partner-card__name">
        {partner.name}
      </h2>
      {partner.desc ? <p className="partner-card__description">{partner.desc}</p> : null}
      {hasContacts ? (
        <dl className="partner-card__contacts">
          {partner.email ? (
            <div>
              <dt>{t('partner-email')}</dt>
              <dd>
                <a href={`mailto:${partner.email}`}>{partner.email}</a>
              </dd>
            </div>
          ) : null}
          {partner.link ? (
            <div>
              <dt>{t('partner-site')}</dt>
              <dd>
                <a href={webAddress(partner.link)} rel="noopener noreferrer" target="_blank">
                  {hostOf(webAddress(partner.link))}
                </a>
              </dd>
            </div>
          ) : null}
          {partner.phone_number ? (
            <div>
              <dt>{t('partner-phone')}</dt>
              <dd>
                <a href={phoneHref(partner.phone_number)}>{partner.phone_number}</a>
              </dd>
            </div>
          ) : null}
          {partner.phone_number_mobile ? (
            <div>
              <dt>{t('partner-mobile')}</dt>
              <dd>
                <a href={phoneHref(partner.phone_number_mobile)}>{partner.phone_number_mobile}</a>
              </dd>
            </div>
          ) : null}
          {telegram ? (
            <div>
              <dt>{t('partner-telegram')}</dt>
              <dd>
                <a href={telegram.href} rel="noopener noreferrer" target="_blank">
                  {telegram.handle}
                </a>
              </dd>
            </div>
          ) : null}
          {partner.messenger ? (
            <div>
              <dt>{t('partner-messenger')}</dt>
              <dd>{partner.messenger}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {partner.socials.length > 0 ? (
        <ul className="social-links partner-card__socials" aria-label={t('partner-socials')}>
          {partner.socials.map((social) => (
            <li key={`${social.type}:${social.link}`}>
              <SocialLink
                type={social.type}
                href={webAddress(social.link)}
                name={t('partner-social-link', { partner: partner.name, network: networkName(social) })}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

export default function PartnersPage({ loaderData }: Route.ComponentProps) {
  const { locale, t } = useShop();
  const { partners } = loaderData;
  return (
    <div className="static-page partners-page">
      <PublicPageHead title={t('partners')} description={content[locale].description} path="/partners" />
      <h1>{t('partners')}</h1>
      <p className="static-page__intro">{content[locale].intro}</p>
      {partners.length > 0 ? (
        <ul className="partner-list">
          {partners.map((partner) => (
            <li key={partner.id}>
              <PartnerCard partner={partner} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">{t('partners-empty')}</p>
      )}
    </div>
  );
}
