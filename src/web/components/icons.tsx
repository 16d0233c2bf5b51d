/** Inline SVG icons; decorative unless given a label. */
type IconProps = { label?: string; size?: number };

function Svg({ label, size = 24, children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const SearchIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Svg>
);
export const CartIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M3 4h2l2.4 11.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21 8H6" />
    <circle cx="10" cy="20" r="1.4" />
    <circle cx="17" cy="20" r="1.4" />
  </Svg>
);
export const HeartIcon = ({ filled, ...props }: IconProps & { filled?: boolean }) => (
  <Svg {...props}>
    <path
      d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"
      fill={filled ? 'currentColor' : 'none'}
    />
  </Svg>
);
export const MenuIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Svg>
);
export const CloseIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Svg>
);
export const ChevronIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="m6 9 6 6 6-6" />
  </Svg>
);

const SOCIAL_MARKS: Record<string, { mark: string; color: string }> = {
  vk: { mark: 'VK', color: '#0077ff' },
  telegram: { mark: 'TG', color: '#229ed9' },
  youtube: { mark: 'YT', color: '#e62117' },
  twitter: { mark: 'X', color: '#14171a' },
  instagram: { mark: 'IG', color: '#c13584' },
  facebook: { mark: 'f', color: '#1877f2' },
  steam: { mark: 'ST', color: '#1b2838' },
  discord: { mark: 'DC', color: '#5865f2' },
};

export const KNOWN_SOCIALS = ['vk', 'twitter', 'steam', 'youtube', 'instagram', 'facebook'] as const;

/**
 * A social network's mark. A network without one (a partner may list any) gets a globe, a plain
 * "web link" sign, rather than the spec's empty icon, which looked like a broken image.
 */
export function SocialIcon({ type, size = 32 }: { type: string; size?: number }) {
  const social = SOCIAL_MARKS[type];
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={social?.color ?? '#4a4868'} />
      {social ? (
        <text
          x="16"
          y="21"
          textAnchor="middle"
          fontSize="13"
          fontWeight="700"
          fill="#fff"
          fontFamily="system-ui, sans-serif"
        >
          {social.mark}
        </text>
      ) : (
        <g fill="none" stroke="#fff" strokeWidth="1.6">
          <circle cx="16" cy="16" r="8.5" />
          <ellipse cx="16" cy="16" rx="3.6" ry="8.5" />
          <path d="M7.5 16h17" />
        </g>
      )}
    </svg>
  );
}
