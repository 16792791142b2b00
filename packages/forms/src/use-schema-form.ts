import { zodResolver } from '@hookform/resolvers/zod';
import { type FieldValues, type UseFormProps, type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';

/** A form's values as its fields hold them (`z.input`) and as the schema hands them on (`z.output`). */
export type SchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>> = UseFormReturn<
  z.input<Schema>,
  unknown,
  z.output<Schema>
>;

/**
 * The one way a form is made, in the customer app and the back office alike: react-hook-form
 * validating with a zod schema — the request schema of `@bourse/shared/api` the server checks
 * too, narrowed or extended for the page. Fields are checked when first left, then on every
 * change; `handleSubmit` only calls back with values the schema accepted (its output, transforms
 * applied).
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
