// Money as the API sends it: whole minor units of an ISO 4217 currency (cents for USD), never
// a fraction, so nothing here does arithmetic in floating point except for display.

/** @typedef {{minorUnits: number, currency: string}} Money */

/** Digits after the decimal point of a currency (2 for USD, 0 for JPY). */
export function minorDigits(currency) {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "$7.80"; with `signed`, "+$10.00" / "−$7.80". @param {Money} m @param {{signed?: boolean}} [o] */
export function formatMoney(m, o = {}) {
  const digits = minorDigits(m.currency);
  const value = Math.abs(m.minorUnits) / 10 ** digits;
  let text;
  try {
    text = new Intl.NumberFormat(undefined, { style: 'currency', currency: m.currency }).format(value);
  } catch {
    text = `${value.toFixed(digits)} ${m.currency}`;
  }
  if (m.minorUnits < 0) return `−${text}`;
  return o.signed && m.minorUnits > 0 ? `+${text}` : text;
}

/** Minor units from what a person typed ("12", "12.5", "12.50"); null when it is not an amount. */
export function parseAmount(text, currency) {
  const digits = minorDigits(currency);
  const t = String(text).trim().replace(/^[$€£]/, '');
  const m = /^(\d{1,7})(?:[.,](\d{0,2}))?$/.exec(t);
  if (!m || (m[2] && m[2].length > digits)) return null;
  const frac = (m[2] ?? '').padEnd(digits, '0');
  return Number(m[1]) * 10 ** digits + (digits ? Number(frac || 0) : 0);
}
