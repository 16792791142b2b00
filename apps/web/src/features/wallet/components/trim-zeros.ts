/** A decimal string without trailing zeros after its point, for inputs and hints (`"10.50000000"` → `"10.5"`). */
export function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
