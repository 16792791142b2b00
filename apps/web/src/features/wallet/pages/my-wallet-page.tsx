import '../components/wallet.css';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../../shared/paths.ts';
import {
  IconBill,
  IconCard,
  IconConvert,
  IconDeposit,
  IconPin,
  IconWithdraw,
} from '../../../shared/ui/icons.tsx';
import { Menu, MenuItem } from '../../../shared/ui/menu.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { useTotalValue } from '../api/get-total-value.ts';
import { BalanceHero } from '../components/balance-hero.tsx';

/** `User/myWallte`: the total, and every record and setting of the wallet in one list. */
export default function MyWalletPage() {
  const { t } = useTranslation();
  const total = useTotalValue();
  return (
    <Page title={t('wallet.myWallet.title')}>
      <BalanceHero label={t('wallet.assets.total')} value={total.data} unit="USDT" testId="wallet-total" />
      <Menu title={t('wallet.myWallet.records')}>
        <MenuItem
          icon={IconDeposit}
          label={t('wallet.depositList.title')}
          to={PATHS.depositList}
          testId="menu-deposits"
        />
        <MenuItem
          icon={IconWithdraw}
          label={t('wallet.withdrawalList.title')}
          to={PATHS.withdrawList}
          testId="menu-withdrawals"
        />
        <MenuItem icon={IconBill} label={t('wallet.bills.title')} to={PATHS.bills} testId="menu-bills" />
      </Menu>
      <Menu title={t('wallet.myWallet.settings')}>
        <MenuItem
          icon={IconPin}
          label={t('wallet.addresses.title')}
          to={PATHS.addressList}
          testId="menu-addresses"
        />
        <MenuItem
          icon={IconCard}
          label={t('wallet.bankCards.title')}
          to={PATHS.bankCards}
          testId="menu-bank-cards"
        />
        <MenuItem
          icon={IconConvert}
          label={t('wallet.convert.title')}
          to={PATHS.convert}
          testId="menu-convert"
        />
      </Menu>
    </Page>
  );
}
