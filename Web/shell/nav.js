// The navigation between areas: a tab bar at the bottom of a phone, a rail at the side of a
// wide screen (the stylesheet decides which). Links with real paths, so they work with the
// keyboard, a screen reader, a middle click and a long press; the current area carries
// aria-current="page".

import { el } from './dom.js';

/** Outline icons, 24 × 24; one per area that exists or is planned. */
const ICONS = {
  parking: ['M7 3.5h10a3.5 3.5 0 0 1 3.5 3.5v10a3.5 3.5 0 0 1-3.5 3.5H7A3.5 3.5 0 0 1 3.5 17V7A3.5 3.5 0 0 1 7 3.5z', 'M10 16.5v-9h2.8a2.6 2.6 0 0 1 0 5.2H10'],
  rooms: ['M4 20.5h16', 'M6 20.5V4.5h9v16', 'M15 7.5h3v13', 'M12 12.5v1'],
  trails: ['M3.5 19.5 9 9l4 6 2.5-3.5 5 8', 'M9 4.5v4'],
  plan: ['M4.5 6.5h15v13h-15z', 'M4.5 10.5h15', 'M8.5 4v4', 'M15.5 4v4'],
  me: ['M12 12.3a3.8 3.8 0 1 0 0-7.6 3.8 3.8 0 0 0 0 7.6z', 'M4.8 20c.9-3.6 3.7-5.6 7.2-5.6s6.3 2 7.2 5.6'],
};

function icon(id) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'icon');
  for (const d of ICONS[id] ?? ['M12 4.5a7.5 7.5 0 1 0 0 15 7.5 7.5 0 0 0 0-15z']) {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    svg.append(p);
  }
  return svg;
}

/**
 * @param {HTMLElement} nav the <nav> element
 * @param {import('../areas.js').AreaEntry[]} areas
 * @param {(id: string, e: MouseEvent) => void} onChoose a link was followed (the shell decides where to)
 */
export function renderNav(nav, areas, onChoose) {
  const links = new Map();
  const list = el('ul', 'areas-list', areas.map((a) => {
    const link = el('a', { class: 'area-link', href: a.home, id: `nav-${a.id}`, dataset: { area: a.id } },
      el('span', 'area-icon', icon(a.id)), el('span', 'area-label', a.title));
    link.addEventListener('click', (/** @type {MouseEvent} */ e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      onChoose(a.id, e);
    });
    links.set(a.id, link);
    return el('li', null, link);
  }));
  // The mark heads the rail of a wide screen; a phone's tab bar has no room for it.
  const mark = el('img', { class: 'areas-mark', src: '/icons/icon.svg', alt: '', width: 36, height: 36 });
  nav.replaceChildren(mark, list);
  nav.hidden = areas.length < 2;
  return {
    /** Marks the area shown now. @param {string} id */
    setCurrent(id) {
      for (const [key, link] of links) {
        if (key === id) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
      document.documentElement.dataset.area = id;
    },
    /** @param {string} id */
    link: (id) => /** @type {HTMLAnchorElement|undefined} */ (links.get(id)),
  };
}
