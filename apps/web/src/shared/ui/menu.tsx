import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { IconChevronRight } from './shell-icons.tsx';

interface MenuItemBase {
  icon?: ComponentType<{ className?: string }>;
  label: ReactNode;
  /** A short value on the right: a status, the current choice. */
  value?: ReactNode;
  isDanger?: boolean;
  testId?: string;
  /** Extra content at the end of the row, instead of the chevron. */
  trailing?: ReactNode;
}

export type MenuItemProps = MenuItemBase &
  ({ to: string; onClick?: never } | { onClick: () => void; to?: never });

/** One row of a settings list: icon, label, value, chevron. A link or a button. */
export function MenuItem({
  icon: Icon,
  label,
  value,
  isDanger,
  testId,
  trailing,
  to,
  onClick,
}: MenuItemProps) {
  const body = (
    <>
      {Icon && <Icon className="menu-icon" />}
      <span className="menu-label">{label}</span>
      {value !== undefined && <span className="menu-value">{value}</span>}
      {trailing ?? <IconChevronRight className="menu-chevron" />}
    </>
  );
  const className = isDanger ? 'menu-item is-danger' : 'menu-item';
  return (
    <li>
      {to !== undefined ? (
        <Link to={to} className={className} data-testid={testId}>
          {body}
        </Link>
      ) : (
        <button type="button" className={className} onClick={onClick} data-testid={testId}>
          {body}
        </button>
      )}
    </li>
  );
}

export function Menu({ title, children }: { title?: ReactNode; children: ReactNode }) {
  return (
    <section>
      {title && <h2 className="menu-title">{title}</h2>}
      <ul className="menu">{children}</ul>
    </section>
  );
}
