import { ConfirmDepositBody, FreezeBody, RejectBody, StaffTokenBody } from '@bourse/shared/api';
import { Input, Modal } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField, SchemaFormView, useSchemaForm } from './form.tsx';

/**
 * What the dialog asks for: the amount to credit, a required reason, an optional note, or nothing
 * (a plain confirmation).
 */
export type ReasonModalKind = 'amount' | 'reason' | 'note' | 'confirm';

const SCHEMAS = {
  confirm: StaffTokenBody.omit({ token: true }),
  amount: ConfirmDepositBody.pick({ amount: true }),
  reason: RejectBody.pick({ reason: true }),
  note: FreezeBody.pick({ reason: true }),
};

/** Asks for a reason or an amount before an action; `onSubmit` runs the action. */
export function ReasonModal(props: {
  /** Closed when null. */
  kind: ReasonModalKind | null;
  title: string;
  amountLabel?: string;
  initialAmount?: string;
  onCancel(): void;
  onSubmit(values: { reason?: string; amount?: string }): Promise<void>;
}) {
  if (!props.kind) return null;
  return <ReasonDialog key={props.kind} {...props} kind={props.kind} />;
}

function ReasonDialog(props: Parameters<typeof ReasonModal>[0] & { kind: ReasonModalKind }) {
  const { t } = useTranslation();
  const formId = useId();
  const form = useSchemaForm(SCHEMAS[props.kind], {
    defaultValues: props.kind === 'amount' ? { amount: props.initialAmount ?? '' } : { reason: '' },
  });
  const control = form.control;
  return (
    <Modal
      open
      title={props.title}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ htmlType: 'submit', form: formId, loading: form.formState.isSubmitting }}
      onCancel={props.onCancel}
    >
      <SchemaFormView
        id={formId}
        // why: the caller reports a failed action itself (its mutation's onError); the dialog stays open.
        onSubmit={form.handleSubmit((values) => props.onSubmit(values).catch(() => undefined))}
      >
        {props.kind === 'confirm' ? null : props.kind === 'amount' ? (
          <FormField control={control} name="amount" label={props.amountLabel}>
            <Input inputMode="decimal" />
          </FormField>
        ) : (
          <FormField
            control={control}
            name="reason"
            label={t('users.reason')}
            invalidText={t('users.reasonRule')}
          >
            <Input.TextArea rows={3} />
          </FormField>
        )}
      </SchemaFormView>
    </Modal>
  );
}
