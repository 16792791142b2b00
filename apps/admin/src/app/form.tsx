import { zodResolver } from '@hookform/resolvers/zod';
import { Form, Input } from 'antd';
import { cloneElement, type FormEventHandler, type ReactElement, type ReactNode } from 'react';
import {
  type Control,
  type FieldPath,
  type FieldValues,
  type UseFormProps,
  type UseFormReturn,
  useController,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

/** A form's values as its fields hold them (`z.input`) and as the schema hands them on (`z.output`). */
export type SchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>> = UseFormReturn<
  z.input<Schema>,
  unknown,
  z.output<Schema>
>;

/**
 * The one way a back-office form is made: react-hook-form validating with a zod schema of
 * `@bourse/shared/api` — the request schema the server checks too. Fields are checked when first
 * left, then on every change; `handleSubmit` calls back only with values the schema accepted.
 */
export function useSchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
): SchemaForm<Schema> {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    mode: 'onTouched',
    ...options,
    resolver: zodResolver(schema),
  });
}

/**
 * The text of a field's problem: the schemas report result keys (`PARAM_MISSING`,
 * `STAFF_TOTP_WRONG`, …), shown through `form.errors.<KEY>`; anything else reads as "check this
 * value". `invalidText` replaces the generic PARAM_ERROR with the field's own rule.
 */
function useErrorText(): (message: string | undefined, invalidText?: string) => string | undefined {
  const { t, i18n } = useTranslation();
  return (message, invalidText) => {
    if (!message) return undefined;
    if (message === 'PARAM_ERROR' && invalidText) return invalidText;
    const key = `form.errors.${message}`;
    return i18n.exists(key) ? t(key) : (invalidText ?? t('form.errors.PARAM_ERROR'));
  };
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
