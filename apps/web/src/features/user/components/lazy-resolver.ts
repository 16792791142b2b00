import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose validation code loads on first use. The password forms check
 * their fields with zod schemas built on the shared request schemas (`@bourse/shared/api`): with
 * zod, some 140 KB of script that no field needs to be drawn. Kept out of the page's own chunk,
 * the form paints without it; `preload` starts the download once the user turns to the form (its
 * first focus), and the first check (a field left, or the submit) waits for it if it is still on
 * its way.
 */
export function lazyResolver<Input extends FieldValues, Output>(
  load: () => Promise<Resolver<Input, unknown, Output>>,
): { resolver: Resolver<Input, unknown, Output>; preload: () => void } {
  let loading: Promise<Resolver<Input, unknown, Output>> | undefined;
  const get = () => {
    loading ??= load();
    // why: a failed download (offline) is tried again on the next check, not remembered.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => {
      void get();
    },
  };
}
