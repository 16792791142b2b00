import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { IconChevronRight } from '../../../shared/ui/icons.tsx';

/**
 * antd-mobile's ActionSheet with its Popup and animation library (about 30 KB gzipped): fetched at
 * the first touch or focus of a picker, not with the page, which shows the field before any tap.
 */
let actionSheet: Promise<typeof import('antd-mobile/es/components/action-sheet').default> | null = null;
function loadActionSheet() {
  actionSheet ??= import('antd-mobile/es/components/action-sheet').then(
    (m) => m.default,
    (error: unknown) => {
      actionSheet = null;
      throw error;
    },
  );
  return actionSheet;
}

function preloadActionSheet() {
  loadActionSheet().catch(() => undefined);
}

export interface PickerOption {
  value: string;
  label: string;
  description?: string;
}

/**
 * A labelled field that opens a bottom sheet of choices (network, coin, address): the choice in
 * the field, the sheet listing every option with the current one in bold.
 */
export function OptionPicker({
  label,
  value,
  options,
  onChange,
  placeholder,
  testId,
  error,
  extra,
}: {
  label: string;
  value: string;
  options: readonly PickerOption[];
  onChange: (value: string) => void;
  placeholder: string;
  testId?: string;
  error?: string;
  /** Text above the choices in the sheet. */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const valueId = useId();
  const current = options.find((option) => option.value === value);

  function open() {
    loadActionSheet().then(show, () => undefined);
  }

  function show(ActionSheet: Awaited<ReturnType<typeof loadActionSheet>>) {
    const handler = ActionSheet.show({
      extra: extra ?? label,
      cancelText: t('common.cancel'),
      actions: options.map((option) => ({
        key: option.value,
        text: option.label,
        description: option.description,
        bold: option.value === value,
        onClick: () => {
          onChange(option.value);
          handler.close();
        },
      })),
    });
  }

  return (
    <div className={error ? 'field has-error' : 'field'}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <button
        type="button"
        className="field-control picker-control"
        aria-labelledby={`${labelId} ${valueId}`}
        aria-haspopup="dialog"
        // why: the sheet shows the options as they are when it opens; until they have loaded it
        // would open empty and stay so.
        disabled={options.length === 0}
        aria-busy={options.length === 0}
        onClick={open}
        onPointerDown={preloadActionSheet}
        onFocus={preloadActionSheet}
        data-testid={testId}
        data-value={value}
      >
        <span id={valueId} className={current ? 'picker-value' : 'picker-value is-placeholder'}>
          {current ? current.label : placeholder}
          {current?.description && <span className="picker-description">{current.description}</span>}
        </span>
        <IconChevronRight className="picker-chevron" />
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
