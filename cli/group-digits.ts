// Thousands separators for whole numbers, without ICU (its first use costs a command tens of ms).

/**
 * `n` as `Number.prototype.toLocaleString('en-US')` writes it: `1234567` → `1,234,567`. Whole
 * numbers are grouped by hand, because the first call into ICU's number formatting loads its locale
 * data, which `yoke replay` and `yoke usage` would otherwise pay at every start; anything else
 * (fractions, infinities) still goes through ICU.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
