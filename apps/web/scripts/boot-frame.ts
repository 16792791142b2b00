import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LOCALE, LOCALES, lookupText, type TextTree } from '@bourse/i18n';
import type { Plugin } from 'vite';

const BOOT = fileURLToPath(new URL('../src/app/boot/', import.meta.url));
const RESOURCES = fileURLToPath(new URL('../../../packages/i18n/resources/web', import.meta.url));
/** The first screen's route, lower-cased as the app matches it, and its page module. */
const FIRST_SCREEN = '/trade/tradelist';
const FIRST_SCREEN_PAGE = 'src/features/markets/pages/market-list-page.tsx';

type Chunk = { type: 'chunk'; fileName: string; facadeModuleId: string | null; imports: string[] };
type Bundle = Record<string, Chunk | { type: 'asset'; fileName: string; source: string | Uint8Array }>;

function read(file: string): string {
  return fs.readFileSync(path.join(BOOT, file), 'utf8');
}

/** The keys the frame names in `data-t`, `data-t-aria-label` and `data-t-placeholder`, in order. */
function frameKeys(frame: string): string[] {
  return [...new Set([...frame.matchAll(/\sdata-t(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1] as string))];
}

/** Every locale's texts for `keys`, in the same order (a missing one is an error: locales are complete). */
function frameTexts(keys: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(
    LOCALES.map((locale) => {
      const tree = JSON.parse(fs.readFileSync(path.join(RESOURCES, `${locale}.json`), 'utf8')) as TextTree;
      return [
        locale,
        keys.map((key) => {
          const value = lookupText(tree, key);
          if (value === undefined) throw new Error(`boot frame: ${locale} has no text ${key}`);
          return value;
        }),
      ];
    }),
  );
}

/** The files `fileName` loads with it (its static imports, transitively), itself included. */
function closure(bundle: Bundle, fileName: string): string[] {
  const seen = new Set<string>();
  const stack = [fileName];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const chunk = bundle[next];
    if (chunk?.type === 'chunk') stack.push(...chunk.imports);
  }
  return [...seen];
}

/**
 * The app's frame in index.html, painted before any of the app's scripts has loaded: the market
 * list's nav bar, welcome card, tools, skeleton rows and tab bar (src/app/boot/frame.html) in the
 * visitor's language (texts of every locale inlined, picked by the stored `lang` as the app picks
 * them), and preload hints for the texts and, on the market list, the page's code. Two small
 * inline scripts (src/app/boot/*.js), allowed by the server's policy through their hashes. React
 * replaces the frame at its first render (main.tsx waits for the entry page's code, so that render
 * is the page itself); e2e/first-load.test.ts holds the frame to the page's markup.
 */
export function bootFrame(): Plugin {
  return {
    name: 'bourse-boot-frame',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const frame = read('frame.html')
          .replace(/<!--[\s\S]*?-->/g, '')
          .replace(/>\s+</g, '><')
          .trim();
        const keys = frameKeys(frame);
        const texts = frameTexts(keys);
        const bundle = context.bundle as Bundle | undefined;
        const chunks = Object.values(bundle ?? {}).filter((each): each is Chunk => each.type === 'chunk');
        const entryFiles = new Set(
          chunks.filter((chunk) => html.includes(`/${chunk.fileName}"`)).map((chunk) => chunk.fileName),
        );
        const notYetLoaded = (files: string[]) =>
          files.filter((file) => !entryFiles.has(file)).map((file) => `/${file}`);
        const textFiles = (part: string) =>
          Object.fromEntries(
            LOCALES.map((locale) => {
              const chunk = chunks.find(
                (each) => each.facadeModuleId === `\0virtual:bourse-texts/${locale}/${part}`,
              );
              return [locale, chunk && bundle ? notYetLoaded(closure(bundle, chunk.fileName)) : []];
            }),
          );
        const page = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(FIRST_SCREEN_PAGE));
        // why: in a build, the entry script, its modulepreload links and the first stylesheet leave
        // the HTML: the stylesheet is inlined (the frame paints without another round trip) and
        // head.js requests the scripts one frame after that paint. The dev server keeps its own.
        const entryTag = bundle
          ? html.match(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/)
          : null;
        const preloadTags = bundle
          ? [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)]
          : [];
        const styleTags = bundle
          ? [...html.matchAll(/<link rel="stylesheet" crossorigin href="\/([^"]+)">/g)]
          : [];
        let out = html;
        for (const tag of [...(entryTag ? [entryTag] : []), ...preloadTags]) out = out.replace(tag[0], '');
        for (const [tag, file] of styleTags) {
          const asset = bundle?.[file as string];
          if (asset?.type !== 'asset') continue;
          out = out.replace(tag, () => `<style>${String(asset.source).trim()}</style>`);
        }
        const boot = {
          entry: entryTag?.[1] ?? null,
          entryFiles: preloadTags.map((tag) => tag[1]),
          // why: in the order normalizeLocale tries them, which head.js follows.
          locales: LOCALES,
          fallback: DEFAULT_LOCALE,
          firstScreen: FIRST_SCREEN,
          preload: textFiles('core'),
          // why: every other page's own texts are found through this table; fetched at once, it
          // is not one more round trip after the main script.
          parts: textFiles('_parts'),
          firstScreenFiles: page && bundle ? notYetLoaded(closure(bundle, page.fileName)) : [],
          keys,
          texts,
        };
        // why: comments go first (they name the placeholder too); the replacer is a function, so
        // a `$` in a text is never read as a replacement pattern.
        const inline = (file: string, value?: unknown) =>
          read(file)
            .replace(/^\s*\/\/.*\n/gm, '')
            .replace('__BOOT__', () => JSON.stringify(value))
            .trim();
        return out
          .replace('<head>', () => `<head>\n    <script>${inline('head.js', boot)}</script>`)
          .replace(
            '<div id="root"></div>',
            () => `<div id="root">${frame}</div>\n    <script>${inline('frame.js')}</script>`,
          );
      },
    },
  };
}
