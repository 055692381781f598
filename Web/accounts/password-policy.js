// The password rules of ACC-2, mirrored here only to show them while typing. The server checks
// them too, and what it says on failure is what the person is shown.

/** @type {{id: string, label: string, test: (p: string) => boolean}[]} */
export const RULES = [
  { id: 'length', label: 'At least 8 characters', test: (p) => [...p].length >= 8 },
  { id: 'upper', label: 'An upper-case letter', test: (p) => /\p{Lu}/u.test(p) },
  { id: 'digit', label: 'A digit', test: (p) => /\p{Nd}/u.test(p) },
  { id: 'symbol', label: 'A character that is not a letter or digit', test: (p) => /[^\p{L}\p{Nd}]/u.test(p) },
];

/** @param {string} password @returns {{id: string, label: string, ok: boolean}[]} */
export function checkPassword(password) {
  return RULES.map((r) => ({ id: r.id, label: r.label, ok: r.test(password) }));
}
