// The icons of the app shell (tab bar, page header, state blocks) and of the first page (the
// market list): in the first load. Every other icon is in icons.tsx, fetched with the pages that
// use them.
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

/** The frame of every icon: 24×24, stroked in the current colour, hidden from assistive technology. */
export function Svg({ children, ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const IconBack = (p: IconProps) => (
  <Svg {...p}>
    <path d="M15 5l-7 7 7 7" />
  </Svg>
);

export const IconChevronRight = (p: IconProps) => (
  <Svg {...p}>
    <path d="M9 5l7 7-7 7" />
  </Svg>
);

export const IconMarkets = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 19h16" />
    <path d="M5 15l4-4 3 3 6-7" />
    <path d="M15 7h3v3" />
  </Svg>
);

export const IconTrade = (p: IconProps) => (
  <Svg {...p}>
    <path d="M7 4v16M7 4l-3 3M7 4l3 3" />
    <path d="M17 20V4M17 20l-3-3M17 20l3-3" />
  </Svg>
);

export const IconUser = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 20c1.5-3.5 4.4-5 8-5s6.5 1.5 8 5" />
  </Svg>
);

export const IconWifiOff = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 3l18 18" />
    <path d="M8.5 16.5a5 5 0 017 0M5 12.9a10 10 0 014.2-2.5M19 12.9a10 10 0 00-3-2M2 9a15 15 0 015.1-3.1M22 9a15 15 0 00-10-4" />
    <circle cx="12" cy="20" r="0.6" fill="currentColor" />
  </Svg>
);

export const IconCompass = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M15.5 8.5l-2 5-5 2 2-5z" />
  </Svg>
);

export const IconArrowUp = (p: IconProps) => (
  <Svg {...p} strokeWidth={2.4}>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </Svg>
);

export const IconArrowDown = (p: IconProps) => (
  <Svg {...p} strokeWidth={2.4}>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </Svg>
);

export const IconStar = ({ isFilled = false, ...p }: IconProps & { isFilled?: boolean }) => (
  <Svg {...p}>
    <path
      d="M12 3.5l2.6 5.3 5.9.9-4.2 4.1 1 5.8L12 16.8l-5.3 2.8 1-5.8-4.2-4.1 5.9-.9z"
      fill={isFilled ? 'currentColor' : 'none'}
    />
  </Svg>
);

export const IconSearch = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M16 16l4.5 4.5" />
  </Svg>
);

export const IconMegaphone = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 10v4h3l6 4V6L7 10H4z" />
    <path d="M16.5 9a4 4 0 010 6M19 6.5a7.5 7.5 0 010 11" />
  </Svg>
);
