import { getFormProps, useInputControl } from '@conform-to/react';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { data, Form, Link, NavLink, redirect, useNavigate, useNavigation } from 'react-router';
import { type infoPage, infoPageResponse } from '../../../contract/admin-answers.ts';
import { type Locale, previewPath } from '../../../contract/locale.ts';
import { STATIC_PAGES, type StaticPage, staticPageSave } from '../../../contract/pages.ts';
import type { z } from '../../../contract/zod.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import {
  adminCall,
  formAlert,
  revalidateUnlessRefused,
  submitAdminForm,
  useAdminForm,
} from '../../admin/forms.ts';
import { RichTextField } from '../../admin/rich-text-field.tsx';
import { useAdminShop } from '../../admin/text.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, BusyButton, RequestAlert } from '../../admin/ui.tsx';
import { FormSuccess } from '../../components/form-field.tsx';
import { AboutText } from '../../static-pages/about.tsx';
import { PaymentText } from '../../static-pages/payment.tsx';
import { PrivacyPolicyText } from '../../static-pages/privacy-policy.tsx';
import { ShippingText } from '../../static-pages/shipping.tsx';
import type { Route } from './+types/pages';

const isStaticPage = (value: string | undefined): value is StaticPage =>
  (STATIC_PAGES as readonly (string | undefined)[]).includes(value);

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  if (params.page === undefined) throw redirect('/admin/pages/about');
  if (!isStaticPage(params.page)) throw data(null, { status: 404 });
  return loadAdminAnswer(infoPageResponse, `/pages/${params.page}`, request);
}

/** Saves the page's text in both languages, over the version the editor loaded. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const { page } = params;
  if (!isStaticPage(page)) throw data(null, { status: 404 });
  return submitAdminForm(await request.formData(), {
    schema: staticPageSave,
    send: (json) => adminCall(infoPageResponse, 'PATCH', `/pages/${page}`, { json }),
  });
}

export const shouldRevalidate = revalidateUnlessRefused;

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
type SavedPage = z.output<typeof infoPage>;
type PageFields = { html_ru: string; html_en: string; version: string };

/**
 * A static page's text in both languages, in the rich text editor. A language left as the shop
 * wrote it is sent empty, so the shop keeps its own (styled) text there; emptying an editor goes
 * back to it.
 */
function StaticPageEditor({
  saved,
  actionData,
}: {
  saved: SavedPage;
  actionData: Route.ComponentProps['actionData'];
}) {
  const { t, data: shop } = useAdminShop();
  const navigate = useNavigate();
  const navigation = useNavigation();
  // A saved page starts afresh from the loader's text (the form's key is its version), so only a
  // refusal is shown back to the form, with what was typed.
  const refused = actionData?.ok === false ? actionData : undefined;
  const [form, fields] = useAdminForm<PageFields>({
    schema: staticPageSave,
    lastResult: refused?.result,
    defaultValue: { html_ru: saved.html_ru, html_en: saved.html_en, version: String(saved.version) },
  });
  const texts = { ru: useInputControl(fields.html_ru), en: useInputControl(fields.html_en) };
  // What the built-in text looks like as HTML, read from its hidden rendering once it is on screen.
  const [builtIn, setBuiltIn] = useState<Texts | null>(null);
  const rendered = useRef<Record<Locale, HTMLDivElement | null>>({ ru: null, en: null });
  const BuiltInText = BUILT_IN[saved.page];
  const alert = formAlert(form);

  useEffect(() => {
    setBuiltIn({ ru: rendered.current.ru?.innerHTML ?? '', en: rendered.current.en?.innerHTML ?? '' });
  }, []);

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="admin-card admin-form"
      aria-labelledby="page-form-heading"
    >
      <h2 id="page-form-heading">{t(saved.page)}</h2>
      {actionData?.ok ? <FormSuccess>{t('admin-page-saved')}</FormSuccess> : null}
      <RequestAlert
        message={alert.message}
        errors={alert.errors}
        shownFields={['html_ru', 'html_en']}
        // Someone else saved the page meanwhile: their text replaces what was typed here.
        onReload={refused?.refusal?.recordChanged ? () => navigate('.', { replace: true }) : undefined}
      />
      <input type="hidden" name={fields.version.name} value={saved.version} />
      {LANGUAGES.map((language) => {
        const text = texts[language];
        const field = language === 'ru' ? fields.html_ru : fields.html_en;
        const own = typeof text.value === 'string' ? text.value : '';
        return (
          <div key={language} className="admin-page-text">
            {/* What is sent: the editor's HTML, or '' while the language keeps the built-in text. */}
            <input type="hidden" name={field.name} value={own} />
            <RichTextField
              label={t(language === 'ru' ? 'admin-page-text-ru' : 'admin-page-text-en')}
              value={own || builtIn?.[language] || ''}
              onChange={text.change}
              errors={field.errors}
            />
            <p className="admin-hint">
              {own ? t('admin-page-text-own') : t('admin-page-text-built-in')}{' '}
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
        );
      })}
      <div className="admin-actions">
        <BusyButton busy={navigation.state !== 'idle'} primary>
          {t('save')}
        </BusyButton>
      </div>
    </Form>
  );
}

export default function StaticPagesPage({ loaderData, actionData }: Route.ComponentProps) {
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
      <StaticPageEditor
        key={`${loaderData.page.page}:${loaderData.page.version}`}
        saved={loaderData.page}
        actionData={actionData}
      />
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
