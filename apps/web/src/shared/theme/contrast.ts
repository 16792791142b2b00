/**
 * WCAG 2.2 contrast of the theme tokens in theme.css, computed from the stylesheet itself, so the
 * ratios documented beside the tokens can be checked (contrast.test.ts) and re-measured
 * (`node apps/web/scripts/theme-contrast.ts`). Not part of the app bundle.
 */

/** An sRGB colour with alpha, channels 0–255, alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** The bar a pair must clear: normal text 4.5:1; large text and control boundaries 3:1. */
export const CONTRAST_MINIMUM = { text: 4.5, large: 3, ui: 3 } as const;
export type ContrastKind = keyof typeof CONTRAST_MINIMUM;

/** `#rgb`, `#rrggbb`, `rgb(r, g, b)` or `rgba(r, g, b, a)`; null for anything else. */
export function parseColor(value: string): Rgba | null {
  const text = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  if (short) {
    const [r, g, b] = short.slice(1).map((digit) => Number.parseInt(digit + digit, 16));
    return { r, g, b, a: 1 };
  }
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(text);
  if (long) {
    const [r, g, b] = long.slice(1).map((pair) => Number.parseInt(pair, 16));
    return { r, g, b, a: 1 };
  }
  const functional = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(text);
  if (functional) {
    const [r, g, b] = functional.slice(1, 4).map(Number);
    return { r, g, b, a: functional[4] === undefined ? 1 : Number(functional[4]) };
  }
  return null;
}

/** `top` painted over the opaque `bottom` (alpha compositing). */
export function composite(top: Rgba, bottom: Rgba): Rgba {
  const mix = (over: number, under: number) => over * top.a + under * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of an opaque colour. */
export function relativeLuminance(color: Rgba): number {
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);
}

/** WCAG contrast ratio of two opaque colours (order does not matter), from 1 to 21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio as documented: cut (never rounded up) to two decimals, so a claim never overstates. */
export function formatRatio(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

/** What the page's root element says: which background and which up/down colours apply. */
export interface ThemeState {
  background: 'dark' | 'white';
  upDown: 'green-up' | 'red-up';
}

interface Declaration {
  name: string;
  value: string;
  comment: string | null;
  line: number;
}

interface Block {
  selectors: string[];
  declarations: Declaration[];
}

/** The rule blocks of a flat stylesheet (no nesting, no at-rules around token blocks). */
function readBlocks(css: string): Block[] {
  const blocks: Block[] = [];
  const pattern = /([^{}]+)\{([^{}]*)\}/g;
  for (let match = pattern.exec(css); match; match = pattern.exec(css)) {
    const selectorText = match[1].replace(/\/\*[\s\S]*?\*\//g, '').trim();
    const startLine = css.slice(0, match.index + match[1].length).split('\n').length;
    const declarations: Declaration[] = [];
    match[2].split('\n').forEach((text, offset) => {
      const declaration = /^\s*--([\w-]+)\s*:\s*([^;]+);\s*(?:\/\*\s*(.*?)\s*\*\/)?\s*$/.exec(text);
      if (declaration) {
        declarations.push({
          name: declaration[1],
          value: declaration[2].trim(),
          comment: declaration[3] ?? null,
          line: startLine + offset,
        });
      }
    });
    blocks.push({ selectors: selectorText.split(',').map((s) => s.trim()), declarations });
  }
  return blocks;
}

/** Whether `selector` matches the root element in `state` (attribute selectors on `html`, `:root`). */
function matchesRoot(selector: string, state: ThemeState): boolean {
  if (selector === ':root') return true;
  if (!selector.startsWith('html') || selector.includes(':lang(') || /\s/.test(selector)) return false;
  const attributes: Record<string, string> = {
    'data-background': state.background,
    'data-prefers-color-scheme': state.background === 'white' ? 'light' : 'dark',
    'data-updown': state.upDown,
  };
  const conditions = [...selector.matchAll(/\[([\w-]+)="([^"]*)"\]/g)];
  return conditions.length > 0 && conditions.every(([, name, value]) => attributes[name] === value);
}

/**
 * Every custom property in force on the root element in `state`, later blocks winning (the token
 * blocks of theme.css are ordered so that source order is the cascade order).
 */
export function readTokens(css: string, state: ThemeState): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const block of readBlocks(css)) {
    if (!block.selectors.some((selector) => matchesRoot(selector, state))) continue;
    for (const { name, value } of block.declarations) tokens.set(name, value);
  }
  return tokens;
}

/** The colour of token `name` (`bourse-text`), following `var()` references. */
export function resolveColor(tokens: Map<string, string>, name: string): Rgba {
  let value = tokens.get(name);
  for (let depth = 0; value !== undefined && depth < 10; depth += 1) {
    const reference = /^var\(--([\w-]+)\)$/.exec(value);
    if (!reference) break;
    value = tokens.get(reference[1]);
  }
  const color = value === undefined ? null : parseColor(value);
  if (!color) throw new Error(`--${name} is not a colour (${value ?? 'missing'})`);
  return color;
}

/**
 * Contrast of two tokens in one theme. Translucent tokens (the `-soft` tints) are measured as the
 * app draws them: painted over the page background.
 */
export function tokenContrast(tokens: Map<string, string>, first: string, second: string): number {
  const page = resolveColor(tokens, 'bourse-bg');
  const opaque = (name: string) => {
    const color = resolveColor(tokens, name);
    return color.a < 1 ? composite(color, page) : color;
  };
  return contrastRatio(opaque(first), opaque(second));
}

/**
 * Pairs the app draws, checked in both themes and both up/down preferences whether or not a
 * comment documents them: text on every surface it sits on, text on filled controls, and the
 * boundaries of controls against what surrounds them.
 */
export const REQUIRED_PAIRS: readonly { token: string; other: string; kind: ContrastKind }[] = [
  ...['bg', 'surface', 'input'].flatMap((surface) =>
    ['text', 'text-secondary', 'text-muted'].map((text) => ({
      token: `bourse-${text}`,
      other: `bourse-${surface}`,
      kind: 'text' as const,
    })),
  ),
  ...['bg', 'surface'].flatMap((surface) =>
    ['accent', 'up', 'down', 'warning'].map((text) => ({
      token: `bourse-${text}`,
      other: `bourse-${surface}`,
      kind: 'text' as const,
    })),
  ),
  { token: 'bourse-up', other: 'bourse-up-soft', kind: 'text' },
  { token: 'bourse-down', other: 'bourse-down-soft', kind: 'text' },
  { token: 'bourse-on-fill', other: 'bourse-accent-fill', kind: 'text' },
  { token: 'bourse-on-fill', other: 'bourse-up-fill', kind: 'text' },
  { token: 'bourse-on-fill', other: 'bourse-down-fill', kind: 'text' },
  { token: 'bourse-accent-fill', other: 'bourse-bg', kind: 'ui' },
  { token: 'bourse-control-border', other: 'bourse-bg', kind: 'ui' },
  { token: 'bourse-control-border', other: 'bourse-surface', kind: 'ui' },
  { token: 'bourse-control-border', other: 'bourse-input', kind: 'ui' },
  { token: 'bourse-accent', other: 'bourse-input', kind: 'ui' },
];

/** The four states the root element can be in: two backgrounds times two up/down preferences. */
export const THEME_STATES: readonly ThemeState[] = (['dark', 'white'] as const).flatMap((background) =>
  (['green-up', 'red-up'] as const).map((upDown) => ({ background, upDown })),
);

/** One ratio documented beside a token: `/* text: bg 6.25, surface 5.65 *\/`. */
export interface DocumentedPair {
  /** The theme whose token block documents the pair. */
  theme: ThemeState['background'];
  token: string;
  other: string;
  kind: ContrastKind;
  /** The ratio as written, e.g. "6.25". */
  documented: string;
  line: number;
}

/**
 * The pairs documented in the comments of the token blocks: `kind: other ratio, other ratio; …`,
 * where `other` names a token without its `--bourse-` prefix.
 */
export function readDocumentedPairs(css: string): DocumentedPair[] {
  const pairs: DocumentedPair[] = [];
  for (const block of readBlocks(css)) {
    const theme = block.selectors.includes('html[data-background="white"]') ? 'white' : 'dark';
    for (const declaration of block.declarations) {
      if (!declaration.comment) continue;
      for (const group of declaration.comment.split(';')) {
        const parsed = /^\s*(text|large|ui)\s*:\s*(.+)$/.exec(group);
        if (!parsed) continue;
        for (const item of parsed[2].split(',')) {
          const entry = /^\s*([\w-]+)\s+(\d+\.\d{2})\s*$/.exec(item);
          if (!entry) throw new Error(`theme.css:${declaration.line}: cannot read "${item.trim()}"`);
          pairs.push({
            theme,
            token: declaration.name,
            other: `bourse-${entry[1]}`,
            kind: parsed[1] as ContrastKind,
            documented: entry[2],
            line: declaration.line,
          });
        }
      }
    }
  }
  return pairs;
}
