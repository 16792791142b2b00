/// <reference types="vite/client" />

declare module 'virtual:bourse-texts' {
  type Resource = { [key: string]: string | Resource };
  /** Per locale: the core namespaces (those of the first render), one chunk. */
  export const CORE_LOADERS: Record<string, () => Promise<Resource>>;
  /** Per locale: its table of one loader per other namespace (a small chunk of its own). */
  export const PART_LOADERS: Record<string, () => Promise<Record<string, () => Promise<Resource>>>>;
}
