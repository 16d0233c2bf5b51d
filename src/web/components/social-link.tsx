import { SocialIcon } from './icons.tsx';

/**
 * A link to a page on a social network, shown as the network's mark and opened in a new tab. It is
 * named by hidden text rather than aria-label: the mark's letters ("TG", "YT") are a picture of the
 * logo, and a link whose aria-label does not contain the text inside it is one that speech input
 * cannot reach by what it shows (axe `label-content-name-mismatch`). The title shows the name on hover.
 */
export function SocialLink({ type, href, name }: { type: string; href: string; name: string }) {
  return (
    <a href={href} rel="noopener noreferrer" target="_blank" title={name}>
      <SocialIcon type={type} />
      <span className="visually-hidden">{name}</span>
    </a>
  );
}
