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
 * A form's schema that is fetched when the form first needs it (its first check), or earlier
 * through `preload` (when the user turns to the form): zod and the request schemas are tens of
 * kilobytes a page can draw its form without. A failed fetch is tried again at the next check.
 */
export class LazySchema<Schema> {
  #loading: Promise<Schema> | undefined;
  readonly #load: () => Promise<Schema>;

  constructor(load: () => Promise<Schema>) {
    this.#load = load;
  }

  load(): Promise<Schema> {
    if (!this.#loading) {
      const loading = this.#load();
      loading.catch(() => {
        if (this.#loading === loading) this.#loading = undefined;
      });
      this.#loading = loading;
    }
    return this.#loading;
  }

  /** Starts the fetch (on the form's first focus or touch); for an event handler. */
  readonly preload = (): void => {
    this.load().catch(() => undefined);
  };
}

/**
 * The one way a form is made, in the customer app and the back office alike: react-hook-form
 * validating with a zod schema — the request schema of `@bourse/shared/api` the server checks
 * too, narrowed or extended for the page — given as it is or as a {@link LazySchema}. Fields are
 * checked when first left, then on every change; `handleSubmit` only calls back with values the
 * schema accepted (its output, transforms applied).
 */
export function useSchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema | LazySchema<Schema>,
  options: Omit<UseFormProps<z.input<Schema>, unknown, z.output<Schema>>, 'resolver'> = {},
): SchemaForm<Schema> {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    mode: 'onTouched',
    ...options,
    resolver:
      schema instanceof LazySchema
        ? async (values, context, resolverOptions) =>
            zodResolver(await schema.load())(values, context, resolverOptions)
        : zodResolver(schema),
  });
}
