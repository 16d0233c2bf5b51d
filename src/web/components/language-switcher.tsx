import { Form, useLocation } from 'react-router';
import { LOCALES } from '../../contract/locale.ts';
import { useShop } from '../lib/shop.ts';

/** Stores the choice in the `locale` cookie and comes back to the same page. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { locale, t } = useShop();
  const { pathname, search, hash } = useLocation();
  return (
    <Form
      method="post"
      action="/locale"
      className={`language-switcher ${className ?? ''}`}
      aria-label={t('language')}
    >
      <input type="hidden" name="redirectTo" value={`${pathname}${search}${hash}`} />
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
    </Form>
  );
}
