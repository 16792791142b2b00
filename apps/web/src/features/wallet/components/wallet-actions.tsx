import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export interface WalletAction {
  to: string;
  labelKey: string;
  Icon: ComponentType<{ className?: string }>;
  testId: string;
}

/** The row of big shortcuts under a balance: deposit, withdraw, convert, bills. */
export function WalletActions({ actions }: { actions: readonly WalletAction[] }) {
  const { t } = useTranslation();
  return (
    <ul className="wallet-actions">
      {actions.map(({ to, labelKey, Icon, testId }) => (
        <li key={testId}>
          <Link to={to} className="wallet-action" data-testid={testId}>
            <Icon className="wallet-action-icon" />
            {t(labelKey)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
