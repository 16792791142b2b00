import '../components/account.css';
import { COUNTRY_CODES, canonicalDocumentNumber } from '@bourse/shared';
import Button from 'antd-mobile/es/components/button';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { getCurrentLocale } from '../../../shared/i18n/i18n.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { TextField } from '../../../shared/ui/text-field.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { uploadIdentityImage, useIdentity, useSubmitIdentity } from '../api/account.ts';

const DOC_TYPES = ['passport', 'driver_licence', 'ssn', 'id_card'] as const;
const STATUS_KEYS = ['none', 'pending', 'verified', 'rejected'] as const;

/** Countries and regions by name in the reader's language. */
function useCountries() {
  const locale = getCurrentLocale();
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, locale),
    );
  }, [locale]);
}

/** A local preview of a picked photo (a data URL: the page's policy allows no blob: images). */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** One side of the document: pick a photo, see it, upload it (privately) at once. */
function ImagePicker({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: { handle: string; preview: string } | undefined;
  onChange: (value: { handle: string; preview: string } | undefined) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [isUploading, setIsUploading] = useState(false);
  async function pick(file: File | undefined) {
    if (!file) return;
    setIsUploading(true);
    try {
      const handle = await uploadIdentityImage(file);
      onChange({ handle, preview: await readAsDataUrl(file) });
    } catch {
      // the client already showed the server's message
      onChange(undefined);
    } finally {
      setIsUploading(false);
    }
  }
  return (
    <label className="identity-image" data-testid={testId}>
      {value ? (
        <img src={value.preview} alt={label} />
      ) : (
        <span>{isUploading ? t('common.loading') : label}</span>
      )}
      <input
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        aria-label={label}
        onChange={(event) => pick(event.target.files?.[0])}
        data-testid={`${testId}-input`}
      />
    </label>
  );
}

/**
 * `/User/authrz`: real-name verification. The state (not verified, under review, verified,
 * rejected with the reason) and, when a submission is possible, the form: document type, real
 * name, country or region, mobile, document number (the server keeps only a keyed hash of it:
 * one identity, one trial grant), front and back photos.
 */
export default function IdentityPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const identity = useIdentity();
  const submit = useSubmitIdentity();
  const countries = useCountries();
  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;
  const [type, setType] = useState<(typeof DOC_TYPES)[number]>('passport');
  const [realname, setRealname] = useState('');
  const [country, setCountry] = useState('');
  const [mobile, setMobile] = useState('');
  const [idno, setIdno] = useState('');
  const [front, setFront] = useState<{ handle: string; preview: string }>();
  const [back, setBack] = useState<{ handle: string; preview: string }>();
  const [isEditing, setIsEditing] = useState(false);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (submit.isPending) return;
    if (realname.trim().length < 2) return void showToast(t('identity.validation.realname'));
    if (!country) return void showToast(t('identity.validation.country'));
    if (!/^\+?\d{6,15}$/.test(mobile.trim())) return void showToast(t('identity.validation.mobile'));
    if (canonicalDocumentNumber(idno) === undefined) return void showToast(t('identity.validation.idno'));
    if (!front || !back) return void showToast(t('identity.validation.images'));
    submit.mutate(
      {
        type,
        realname: realname.trim(),
        country,
        mobile: mobile.trim(),
        idno: idno.trim(),
        front: front.handle,
        back: back.handle,
      },
      {
        onSuccess: (body) => {
          showToast(body.msg, 'success');
          setIsEditing(false);
        },
      },
    );
  }

  const state = identity.data;
  const status = STATUS_KEYS[state?.status ?? 0] ?? 'none';
  const canSubmit = status === 'none' || (status === 'rejected' && isEditing);

  return (
    <Page title={t('identity.title')}>
      {identity.isPending ? (
        <ListSkeleton rows={4} />
      ) : identity.isError ? (
        <ErrorState message={identity.error.message} onRetry={() => identity.refetch()} />
      ) : (
        <>
          {status !== 'none' && (
            <section className={`identity-status is-${status}`} data-testid="identity-status">
              <h2 data-testid={`identity-${status}`}>{t(`identity.status.${status}`)}</h2>
              <p>
                {state?.realname} · {countryName(state?.country ?? '')} ·{' '}
                {state?.type ? t(`identity.types.${state.type}`) : ''}
              </p>
              {state?.submitted_at && (
                <p>{t('identity.submittedAt', { time: formatTime(state.submitted_at) })}</p>
              )}
              {status === 'rejected' && (
                <>
                  <p data-testid="identity-reason">{t('identity.reason', { reason: state?.reason })}</p>
                  {!isEditing && (
                    <Button
                      size="small"
                      color="primary"
                      onClick={() => setIsEditing(true)}
                      data-testid="identity-retry"
                    >
                      {t('identity.again')}
                    </Button>
                  )}
                </>
              )}
            </section>
          )}
          {canSubmit && (
            <form className="account-form" onSubmit={handleSubmit} noValidate>
              <p className="note">{t('identity.note')}</p>
              <div className="field">
                <label className="field-label" htmlFor="identity-type">
                  {t('identity.fields.type')}
                </label>
                <select
                  id="identity-type"
                  className="field-select"
                  value={type}
                  onChange={(event) => setType(event.target.value as (typeof DOC_TYPES)[number])}
                  data-testid="identity-type"
                >
                  {DOC_TYPES.map((value) => (
                    <option key={value} value={value}>
                      {t(`identity.types.${value}`)}
                    </option>
                  ))}
                </select>
              </div>
              <TextField
                label={t('identity.fields.realname')}
                placeholder={t('identity.fields.realnamePlaceholder')}
                value={realname}
                onChange={setRealname}
                autoComplete="name"
                maxLength={100}
                testId="identity-realname"
              />
              <div className="field">
                <label className="field-label" htmlFor="identity-country">
                  {t('identity.fields.country')}
                </label>
                <select
                  id="identity-country"
                  className="field-select"
                  value={country}
                  onChange={(event) => setCountry(event.target.value)}
                  data-testid="identity-country"
                >
                  <option value="">{t('identity.fields.countryPlaceholder')}</option>
                  {countries.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </div>
              <TextField
                label={t('identity.fields.mobile')}
                placeholder={t('identity.fields.mobilePlaceholder')}
                value={mobile}
                onChange={setMobile}
                type="tel"
                autoComplete="tel"
                maxLength={16}
                testId="identity-mobile"
              />
              <TextField
                label={t('identity.fields.idno')}
                placeholder={t('identity.fields.idnoPlaceholder')}
                value={idno}
                onChange={setIdno}
                autoComplete="off"
                maxLength={60}
                testId="identity-idno"
              />
              <div className="identity-images">
                <ImagePicker
                  label={t('identity.fields.front')}
                  value={front}
                  onChange={setFront}
                  testId="identity-front"
                />
                <ImagePicker
                  label={t('identity.fields.back')}
                  value={back}
                  onChange={setBack}
                  testId="identity-back"
                />
              </div>
              <p className="note">{t('identity.privacy')}</p>
              <SubmitButton isBusy={submit.isPending} testId="identity-submit" className="form-actions">
                {t('identity.submit')}
              </SubmitButton>
            </form>
          )}
        </>
      )}
    </Page>
  );
}
