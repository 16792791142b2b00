import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks for a reason (and optionally an amount) before an action; `onSubmit` runs the action. */
export function ReasonModal(props: {
  open: boolean;
  title: string;
  amountLabel?: string;
  initialAmount?: string;
  /** Whether a reason is required; undefined hides the field. */
  reasonRequired?: boolean;
  onCancel(): void;
  onSubmit(values: { reason: string; amount?: string }): Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string; amount?: string }>();
  return (
    <Modal
      open={props.open}
      title={props.title}
      destroyOnHidden
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      onCancel={props.onCancel}
      onOk={async () => {
        const values = await form.validateFields();
        await props.onSubmit(values);
        form.resetFields();
      }}
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ amount: props.initialAmount }}>
        {props.amountLabel && (
          <Form.Item
            name="amount"
            label={props.amountLabel}
            rules={[{ required: true, pattern: /^\d+(\.\d{1,8})?$/ }]}
          >
            <Input inputMode="decimal" />
          </Form.Item>
        )}
        {props.reasonRequired !== undefined && (
          <Form.Item
            name="reason"
            label={t('users.reason')}
            rules={[{ required: props.reasonRequired, max: 500 }]}
          >
            <Input.TextArea rows={3} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
