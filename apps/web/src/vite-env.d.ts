/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

declare module 'virtual:bourse-texts' {
  type Resource = { [key: string]: string | Resource };
  /** Per locale: `core` (the namespaces of the first render) and one loader per other namespace. */
  export const TEXT_LOADERS: Record<string, Record<string, () => Promise<Resource>>>;
}
