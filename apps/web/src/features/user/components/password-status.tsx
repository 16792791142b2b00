import { useTranslation } from 'react-i18next';

/** "Set" / "Not set" of a password, as a small coloured tag with the words. */
export function PasswordStatus({ isSet }: { isSet: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={isSet ? 'status-tag is-on' : 'status-tag is-off'}>
      {isSet ? t('common.set') : t('common.notSet')}
    </span>
  );
}
