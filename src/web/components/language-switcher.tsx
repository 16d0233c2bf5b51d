import { Form, useLocation } from 'react-router';
import { LOCALES } from '../../contract/locale.ts';
import { useShop } from '../lib/shop.ts';

/** Stores the choice in the `locale` cookie and comes back to the same page. */
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
          >
            {t(`language-${option}`)}
          </button>
        ))}
      </fieldset>
    </Form>
  );
}
