import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { CORE_NAMESPACES } from '../src/shared/i18n/namespaces.ts';

const RESOURCES = fileURLToPath(new URL('../../../packages/i18n/resources/web', import.meta.url));
const INDEX_ID = 'virtual:bourse-texts';
const PART_PREFIX = 'virtual:bourse-texts/';
/** The part naming a locale's table of namespace loaders (no namespace is called this). */
const PARTS_INDEX = '_parts';

function read(locale: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(RESOURCES, `${locale}.json`), 'utf8'));
}

/**
 * The customer app's texts in chunks: `virtual:bourse-texts` exports, per locale, a loader of the
 * core namespaces (CORE_NAMESPACES, as one chunk) and a loader of that locale's table of the other
 * namespaces' loaders, each namespace a chunk of its own (`virtual:bourse-texts/<locale>/<part>`). The source stays one JSON file per
 * locale; a namespace added there is split out by itself.
 */
export function i18nChunks(): Plugin {
  const locales = () =>
    fs
      .readdirSync(RESOURCES)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .sort();
  return {
    name: 'bourse-i18n-chunks',
    resolveId(id) {
      return id === INDEX_ID || id.startsWith(PART_PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${INDEX_ID}`)) return undefined;
      const rest = id.slice(`\0${INDEX_ID}`.length);
      if (rest === '') {
        const loader = (target: string) =>
          `() => import(${JSON.stringify(`${PART_PREFIX}${target}`)}).then((m) => m.default)`;
        const core = locales().map((locale) => `  ${JSON.stringify(locale)}: ${loader(`${locale}/core`)}`);
        const indexes = locales().map(
          (locale) => `  ${JSON.stringify(locale)}: ${loader(`${locale}/${PARTS_INDEX}`)}`,
        );
        return `export const CORE_LOADERS = {\n${core.join(',\n')}\n};\nexport const PART_LOADERS = {\n${indexes.join(',\n')}\n};\n`;
      }
      const [indexLocale = '', indexPart = ''] = rest.slice(1).split('/');
      if (indexPart === PARTS_INDEX) {
        // why: the loaders of a locale's other namespaces live in a chunk of that locale, fetched
        // with its first page that needs one; the first page's script carries only one per locale.
        this.addWatchFile(path.join(RESOURCES, `${indexLocale}.json`));
        const lazy = Object.keys(read(indexLocale)).filter(
          (ns) => !(CORE_NAMESPACES as readonly string[]).includes(ns),
        );
        const parts = lazy.map(
          (part) =>
            `  ${JSON.stringify(part)}: () => import(${JSON.stringify(`${PART_PREFIX}${indexLocale}/${part}`)}).then((m) => m.default)`,
        );
        return `export default {\n${parts.join(',\n')}\n};\n`;
      }
      const [locale = '', part = ''] = rest.slice(1).split('/');
      this.addWatchFile(path.join(RESOURCES, `${locale}.json`));
      const all = read(locale);
      const picked =
        part === 'core'
          ? Object.fromEntries(
              Object.entries(all).filter(([ns]) => (CORE_NAMESPACES as readonly string[]).includes(ns)),
            )
          : { [part]: all[part] ?? {} };
      return `export default ${JSON.stringify(picked)};\n`;
    },
  };
}
