// Permits by name and colour (PRK-16). Each site lists the permits it issues (`site.permits`,
// in the order to show them); the disabled placard, `handicap`, is known on every site. A
// person's permits are `{siteId, permit}` pairs, the placard without a site.

import { el } from '../shell/dom.js';

export const PLACARD = Object.freeze({ code: 'handicap', name: 'Handicap', colour: '#1c64d6' });
/** A permit's colour when its site gives none, as the server fills in: a neutral grey. */
export const DEFAULT_COLOUR = '#7a7a7a';

/** @typedef {{code: string, name: string, colour: string}} PermitKind */

/** The site's permits, then the placard. @returns {PermitKind[]} */
export function permitKinds(site) {
  return [...(site?.permits ?? []), PLACARD];
}

/** A permit's name at a site; the code itself if the site no longer lists it. */
export function permitName(site, code) {
  return permitKinds(site).find((k) => k.code === code)?.name ?? code;
}

/** "Green", "Green or Yellow", "Green, Yellow or Black", in the site's order. */
export function eitherPermit(site, codes) {
  const names = inSiteOrder(site, codes).map((c) => permitName(site, c));
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

const rank = (kinds, code) => { const i = kinds.indexOf(code); return i < 0 ? kinds.length : i; };

/** Codes in the order the site lists its permits (the API gives a rule's codes sorted). */
export function inSiteOrder(site, codes) {
  const kinds = permitKinds(site).map((k) => k.code);
  return [...codes].sort((a, b) => rank(kinds, a) - rank(kinds, b) || a.localeCompare(b));
}

/** The codes that count at a site among a person's `{siteId, permit}` pairs. @returns {string[]} */
export function heldAt(held, siteId) {
  return (held ?? []).filter((h) => !h.siteId || h.siteId === siteId).map((h) => h.permit);
}

/** The permit's name with a dot of its colour. */
export function permitChip(site, code, className = 'permit') {
  const kind = permitKinds(site).find((k) => k.code === code);
  const chip = el('span', className, kind?.name ?? code);
  chip.dataset.permit = code;
  if (kind) chip.style.setProperty('--dot', kind.colour);
  return chip;
}
