// Display units (ACC-10). The default comes from the browser's locale: the United States (and
// the two other countries that kept imperial units) get miles, °F and feet; everyone else
// kilometres, °C and metres.

/** @typedef {import('./session.js').Units} Units */

const IMPERIAL = new Set(['US', 'LR', 'MM']);

/** @param {string} [locale] @returns {Units} */
export function defaultUnits(locale = navigator.language) {
  let region = '';
  try { region = new Intl.Locale(locale).maximize().region ?? ''; } catch { /* malformed locale */ }
  return IMPERIAL.has(region)
    ? { distance: 'mi', temperature: 'F', elevation: 'ft' }
    : { distance: 'km', temperature: 'C', elevation: 'm' };
}

export const UNIT_CHOICES = {
  distance: [['mi', 'Miles'], ['km', 'Kilometres']],
  temperature: [['F', '°F'], ['C', '°C']],
  elevation: [['ft', 'Feet'], ['m', 'Metres']],
};
