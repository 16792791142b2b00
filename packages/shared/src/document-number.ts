/**
 * What separates the groups of an identity document's number however it is typed: any white space
 * (the ideographic space too), any punctuation (hyphens and dashes of every kind, dots, middle dots,
 * slashes, underscores, commas, brackets), invisible formatting characters (zero-width spaces, soft
 * hyphens, direction marks), the minus sign, and `<`, the filler of a passport's machine-readable
 * line.
 */
const SEPARATORS = /[\p{White_Space}\p{P}\p{Cf}\u2212<]/gu;
const CANONICAL = /^[A-Z0-9]{4,40}$/;

/**
 * An identity document's number as a KYC desk compares it: the letters and digits printed on the
 * document, in order, and nothing else. Full-width and other compatibility forms are folded (NFKC:
 * `ＡＢ１２` is `AB12`), separators dropped, letters upper-cased. Answers undefined unless that
 * leaves 4 to 40 ASCII letters or digits: a letter from another script (a Cyrillic `А` that looks
 * like `A`) is refused, never kept, so no look-alike spelling can pass for another number. Letters
 * and digits that look alike (`O` and `0`) stay distinct: they are different numbers, and the
 * reviewer confirms the number read on the image.
 */
export function canonicalDocumentNumber(input: string): string | undefined {
  const canonical = input.normalize('NFKC').replace(SEPARATORS, '').toUpperCase();
  return CANONICAL.test(canonical) ? canonical : undefined;
}
