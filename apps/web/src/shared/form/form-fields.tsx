import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useController } from 'react-hook-form';
import { AmountInput, type AmountInputProps } from '../ui/amount-input.tsx';
import { TextField, type TextFieldProps } from '../ui/text-field.tsx';
import { useFieldErrorText } from './field-error.ts';

interface Bound<T extends FieldValues> {
  // biome-ignore lint/suspicious/noExplicitAny: the form's context and output types do not matter to a field
  control: Control<T, any, any>;
  name: FieldPath<T>;
}

/** A text field bound to a schema form: value, blur and the translated validation message. */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  ...rest
}: Bound<T> & Omit<TextFieldProps, 'value' | 'onChange' | 'error' | 'name'>) {
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  return (
    <TextField
      {...rest}
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={errorText(fieldState.error?.message)}
    />
  );
}

/**
 * The amount field bound to a schema form: the form holds the plain decimal the field reads from
 * the locale's text (or `UNREADABLE_AMOUNT`, which no schema accepts, while it reads none), and a
 * value set with `setValue` is shown the locale's way.
 */
export function FormAmountField<T extends FieldValues>({
  control,
  name,
  ...rest
}: Bound<T> & Omit<AmountInputProps, 'value' | 'onChange' | 'error' | 'name'>) {
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  return (
    <AmountInput
      {...rest}
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={errorText(fieldState.error?.message)}
    />
  );
}
