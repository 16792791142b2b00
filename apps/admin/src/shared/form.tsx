import { type FieldErrorText, fieldErrorText } from '@bourse/forms';
import { Form, Input } from 'antd';
import { cloneElement, type FormEventHandler, type ReactElement, type ReactNode } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

export { useSchemaForm } from '@bourse/forms';

/**
 * The text of a field's problem in the back office's language (see `fieldErrorText` of
 * `@bourse/forms`): result keys read through `form.errors.<KEY>`; anything else reads as the
 * field's own rule (`invalidText`) or the generic "check this value".
 */
function useErrorText(): FieldErrorText {
  const { i18n } = useTranslation();
  return fieldErrorText(i18n, { fallbackKey: 'form.errors.PARAM_ERROR' });
}

/** What a bound antd control receives; `valueProp` is `checked` for a switch. */
type ControlProps = Record<string, unknown>;

/**
 * An antd control bound to a schema form field: its label, value, change and blur, and the
 * translated problem under it. The control's id is the field's name (labels point at it).
 */
export function FormField<T extends FieldValues>(props: {
  // biome-ignore lint/suspicious/noExplicitAny: the form's context and output types do not matter to a field
  control: Control<T, any, any>;
  name: FieldPath<T>;
  label?: ReactNode;
  extra?: ReactNode;
  /** Shown instead of the generic "check this value" when the schema answers PARAM_ERROR. */
  invalidText?: string;
  valueProp?: 'value' | 'checked';
  /** Rewrites what is typed before the form holds it (e.g. upper case). */
  normalize?: (value: string) => string;
  children?: ReactElement<ControlProps>;
}) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const errorText = useErrorText();
  const problem = errorText(fieldState.error?.message, props.invalidText);
  const control = props.children ?? <Input />;
  const onChange = (value: unknown) => {
    const target = (value as { target?: { value?: unknown } } | null)?.target;
    const raw = target && props.valueProp !== 'checked' ? target.value : value;
    field.onChange(props.normalize && typeof raw === 'string' ? props.normalize(raw) : raw);
  };
  return (
    <Form.Item
      label={props.label}
      extra={props.extra}
      htmlFor={props.name}
      validateStatus={problem ? 'error' : undefined}
      help={problem}
    >
      {cloneElement(control, {
        id: props.name,
        name: field.name,
        [props.valueProp ?? 'value']: field.value ?? (props.valueProp === 'checked' ? false : undefined),
        onChange,
        onBlur: field.onBlur,
        'aria-invalid': problem ? true : undefined,
      })}
    </Form.Item>
  );
}

/**
 * A schema form on the page: a `<form>` that submits through `onSubmit` (the form's
 * `handleSubmit(...)`), with antd's layout for the fields inside.
 */
export function SchemaFormView(props: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  layout?: 'vertical' | 'inline';
  id?: string;
  children: ReactNode;
}) {
  return (
    <form id={props.id} onSubmit={props.onSubmit} noValidate>
      <Form component={false} layout={props.layout ?? 'vertical'}>
        {props.children}
      </Form>
    </form>
  );
}
