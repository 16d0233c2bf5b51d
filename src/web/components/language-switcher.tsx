import { Form, useLocation } from 'react-router';
import { LOCALES } from '../../contract/locale.ts';
import { loadTexts } from '../i18n/texts.ts';
import { useShop } from '../lib/shop.ts';

/**
 * Stores the choice in the `locale` cookie and comes back to the same page. The chosen language's
 * texts are asked for on the click, beside the form's request (each language's are a script of
 * their own, ADR 0086).
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { locale, t } = useShop();
  const { pathname, search, hash } = useLocation();
  return (
    // A named group, not a named form: a named form is a landmark, and the header and the menu both have one.
    <Form method="post" action="/locale" className={`language-switcher ${className ?? ''}`}>
      <input type="hidden" name="redirectTo" value={`${pathname}${search}${hash}`} />
      <fieldset className="language-switcher__options">
        <legend className="visually-hidden">{t('language')}</legend>
        {LOCALES.map((option) => (
          <button
            key={option}
            type="submit"
            name="locale"
            value={option}
            lang={option}
            aria-pressed={option === locale}
            className="language-switcher__option"
            onClick={() => void loadTexts(option).catch(() => undefined)}
          >
            {t(`language-${option}`)}
          </button>
        ))}
      </fieldset>
    </Form>
  );
}
