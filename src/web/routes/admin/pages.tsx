import { type ComponentType, type FormEvent, useEffect, useRef, useState } from 'react';
import { data, Link, NavLink, redirect } from 'react-router';
import { type Locale, previewPath } from '../../../contract/locale.ts';
import { STATIC_PAGES, type StaticPage } from '../../../contract/pages.ts';
import type { StaticPageText } from '../../../server/pages/service.ts';
import { adminApi, loadAdmin } from '../../admin/api.ts';
import { RichTextField } from '../../admin/rich-text-field.tsx';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminRequest,
} from '../../admin/ui.tsx';
import { FormSuccess } from '../../components/form-field.tsx';
import { AboutText } from '../../static-pages/about.tsx';
import { PaymentText } from '../../static-pages/payment.tsx';
import { PrivacyPolicyText } from '../../static-pages/privacy-policy.tsx';
import { ShippingText } from '../../static-pages/shipping.tsx';
import type { Route } from './+types/pages';

const isStaticPage = (value: string): value is StaticPage =>
  (STATIC_PAGES as readonly string[]).includes(value);

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  if (params.page === undefined) throw redirect('/admin/pages/about');
  if (!isStaticPage(params.page)) throw data(null, { status: 404 });
  return loadAdmin<{ page: StaticPageText }>(`/pages/${params.page}`, request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** The shop's own text of each page, the starting point until staff write theirs. */
const BUILT_IN: Record<StaticPage, ComponentType<{ locale: Locale; email: string }>> = {
  shipping: ShippingText,
  payment: PaymentText,
  about: AboutText,
  'privacy-policy': PrivacyPolicyText,
};

const LANGUAGES = ['ru', 'en'] as const;
type Texts = Record<Locale, string>;

/**
 * A static page's text in both languages, in the rich text editor. A language left as the shop
 * wrote it is sent empty, so the shop keeps its own (styled) text there; emptying an editor goes
 * back to it.
 */
function StaticPageEditor({ saved }: { saved: StaticPageText }) {
  const { t, data: shop } = useAdminShop();
  const save = useAdminRequest();
  const [version, setVersion] = useState(saved.version);
  const [texts, setTexts] = useState<Texts>({ ru: saved.html_ru, en: saved.html_en });
  // What the built-in text looks like as HTML, read from its hidden rendering once it is on screen.
  const [builtIn, setBuiltIn] = useState<Texts | null>(null);
  const rendered = useRef<Record<Locale, HTMLDivElement | null>>({ ru: null, en: null });
  const BuiltInText = BUILT_IN[saved.page];

  useEffect(() => {
    setBuiltIn({ ru: rendered.current.ru?.innerHTML ?? '', en: rendered.current.en?.innerHTML ?? '' });
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await save.run(
      () =>
        adminApi<{ page: StaticPageText }>('PATCH', `/pages/${saved.page}`, {
          json: { html_ru: texts.ru, html_en: texts.en, version },
        }),
      { success: t('admin-page-saved'), reload: false },
    );
    if (answer) {
      setVersion(answer.page.version);
      setTexts({ ru: answer.page.html_ru, en: answer.page.html_en });
    }
  };

  return (
    <form className="admin-card admin-form" onSubmit={submit} noValidate aria-labelledby="page-form-heading">
      <h2 id="page-form-heading">{t(saved.page)}</h2>
      {save.done ? <FormSuccess>{save.done}</FormSuccess> : null}
      <RequestAlert
        message={save.message}
        errors={save.errors}
        shownFields={['html_ru', 'html_en']}
        onReload={save.recordChanged ? () => window.location.reload() : undefined}
      />
      {LANGUAGES.map((language) => (
        <div key={language} className="admin-page-text">
          <RichTextField
            label={t(language === 'ru' ? 'admin-page-text-ru' : 'admin-page-text-en')}
            value={texts[language] || builtIn?.[language] || ''}
            onChange={(html) => setTexts((current) => ({ ...current, [language]: html }))}
            errors={save.errors[`html_${language}`]}
          />
          <p className="admin-hint">
            {texts[language] ? t('admin-page-text-own') : t('admin-page-text-built-in')}{' '}
            {/* A preview: it shows the page in `language` without switching the back office's. */}
            <Link to={previewPath(`/${saved.page}`, language)} target="_blank" rel="noopener">
              {t('admin-page-open', { language: language.toUpperCase() })}
            </Link>
          </p>
          <div
            hidden
            ref={(element) => {
              rendered.current[language] = element;
            }}
          >
            <BuiltInText locale={language} email={shop?.shopEmail ?? ''} />
          </div>
        </div>
      ))}
      <div className="admin-actions">
        <BusyButton busy={save.busy} primary>
          {t('save')}
        </BusyButton>
      </div>
    </form>
  );
}

export default function StaticPagesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  return (
    <AdminPage title={t('admin-static-pages')}>
      <nav className="admin-tabs" aria-label={t('admin-static-pages')}>
        {STATIC_PAGES.map((page) => (
          <NavLink key={page} to={`/admin/pages/${page}`} className="admin-tab">
            {t(page)}
          </NavLink>
        ))}
      </nav>
      <StaticPageEditor key={loaderData.page.page} saved={loaderData.page} />
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
