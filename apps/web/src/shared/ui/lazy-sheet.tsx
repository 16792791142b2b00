import { type ComponentType, useEffect, useState } from 'react';

/**
 * A bottom sheet whose code (antd-mobile's Popup and its animation library, about 28 KB gzipped)
 * is fetched the first time it opens, or earlier through `preload` (on the first touch of the
 * form that opens it), instead of with the page. Until then it renders nothing, as a closed sheet
 * does. Once loaded it first mounts closed and opens on the next commit, so it slides in as it
 * did when it came with the page.
 */
export function lazySheet<Props extends { isOpen: boolean }>(load: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | null = null;
  let pending: Promise<ComponentType<Props>> | null = null;

  function preload(): Promise<ComponentType<Props>> {
    pending ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // why: a failed fetch (network down) is tried again at the next opening.
        pending = null;
        throw error;
      },
    );
    return pending;
  }

  function LazySheet(props: Props) {
    const [Sheet, setSheet] = useState<ComponentType<Props> | null>(() => loaded);
    const [isMounted, setIsMounted] = useState(false);
    const wanted = props.isOpen && Sheet === null;
    useEffect(() => {
      if (!wanted) return;
      let isCurrent = true;
      preload().then(
        (component) => {
          if (isCurrent) setSheet(() => component);
        },
        () => undefined,
      );
      return () => {
        isCurrent = false;
      };
    }, [wanted]);
    useEffect(() => {
      if (Sheet) setIsMounted(true);
    }, [Sheet]);
    if (!Sheet) return null;
    return <Sheet {...props} isOpen={props.isOpen && isMounted} />;
  }

  return { Sheet: LazySheet, preload };
}
