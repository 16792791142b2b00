import type sanitizeHtml from 'sanitize-html';

/**
 * What staff-written bodies may hold: paragraphs, emphasis, lists, two heading levels, links
 * (http, https, mailto; opened safely) and images from this site's public uploads (the only
 * images the Content-Security-Policy lets the app load). No script, style, event handler or frame
 * survives; the stored body is the sanitised one.
 */
const OPTIONS = (sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'blockquote',
    'a',
    'img',
  ],
  allowedAttributes: { a: ['href', 'rel', 'target'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  transformTags: {
    a: sanitize.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !isAllowedImage(frame.attribs.src ?? ''),
});

function isAllowedImage(src: string): boolean {
  return src.startsWith('/Upload/public/') && !src.includes('..');
}

// why: the library (and the HTML parser it brings) is loaded with the first body staff save, not
// at start, where it cost every start a few tens of milliseconds.
let sanitizer: Promise<(html: string) => string> | undefined;

export async function sanitizeBody(html: string): Promise<string> {
  sanitizer ??= import('sanitize-html').then(({ default: sanitize }) => {
    const options = OPTIONS(sanitize);
    return (body: string) => sanitize(body, options);
  });
  return (await sanitizer)(html).trim();
}
