import { Link } from 'react-router';
import type { MessageKey } from '../i18n/messages.ts';
import { useShop } from '../lib/shop.ts';

/** A list of the shop's own pages: path and the key of the link's text. */
export function LinkList({ links, className }: { links: Array<[string, MessageKey]>; className?: string }) {
  const { t } = useShop();
  return (
    <ul className={className}>
      {links.map(([to, text]) => (
        <li key={to}>
          <Link to={to}>{t(text)}</Link>
        </li>
      ))}
    </ul>
  );
}
