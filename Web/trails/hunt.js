// The Scavenger Hunt screen (TRL-10, Trailz 3.2.6.7): on easy and moderate trails, the focal
// points to look for — plants, animals, points of interest — each with its picture and a
// checkbox; what the person ticked is kept with them, per trail, and a tick made offline is sent
// when Waymark can be reached.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { OfflineError, problemText } from '../shell/api.js';
import { writes } from '../accounts/outbox.js';
import { getHunt, markFind } from './api.js';
import { POINT_KIND } from './format.js';

/** Whether a trail's page offers the hunt. @param {any} page */
export const hasHunt = (page) => page.summary.difficulty !== 'hard' && page.points.some((p) => p.focalPoint);

/** @param {any} page */
export function huntScreen(page) {
  const t = page.summary;
  const trail = { id: t.id, name: t.name };
  const points = page.points.filter((p) => p.focalPoint);
  const progress = el('p', { class: 'trails-note', id: 'hunt-progress', role: 'status' });
  /** @type {Set<string>} */
  const found = new Set();
  // Ticks still waiting in the outbox count as made.
  for (const w of writes()) if (w.kind === 'scavenger' && w.ref?.trailId === t.id) { if (w.ref.found) found.add(w.ref.pointId); }

  const count = () => { progress.textContent = `${found.size} of ${points.length} found${found.size === points.length ? ' — every one!' : ''}`; };
  const list = el('ul', { class: 'trail-list', id: 'hunt-list' }, points.map((p) => {
    const box = el('input', { type: 'checkbox', id: `hunt-${p.id}`, dataset: { point: p.id }, on: { change: async () => {
      const on = box.checked;
      if (on) found.add(p.id); else found.delete(p.id);
      count();
      try {
        const r = await markFind(trail, p, on);
        if (!r.sent) toast('You are offline: the tick is kept and sent when Waymark can be reached.');
      } catch (err) {
        box.checked = !on;
        if (on) found.delete(p.id); else found.add(p.id);
        count();
        toast(problemText(err));
      }
    } } });
    return el('li', 'trail-guideline',
      p.pictureURL ? el('img', { src: p.pictureURL, alt: '', width: 72, height: 72, loading: 'lazy' }) : null,
      el('div', null, el('label', { class: 'hunt-check', for: `hunt-${p.id}` }, box, el('strong', null, p.name)),
        el('span', 'trail-kind', POINT_KIND[p.kind]), p.history ? el('p', null, p.history) : null));
  }));

  getHunt(t.id).then((h) => {
    for (const x of h.points) if (x.found) found.add(x.point.id);
    for (const box of list.querySelectorAll('input[type="checkbox"]')) box.checked = found.has(box.dataset.point);
    count();
  }).catch((err) => {
    if (!(err instanceof OfflineError)) toast(problemText(err));
    for (const box of list.querySelectorAll('input[type="checkbox"]')) box.checked = found.has(box.dataset.point);
    count();
  });
  count();
  return el('article', { class: 'trail-page', dataset: { trail: t.id, screen: 'hunt' } },
    el('a', { class: 'trails-back', href: `/trails/${encodeURIComponent(t.id)}` }, `‹ ${t.name}`),
    el('h2', 'trails-title', 'Scavenger hunt'),
    el('p', 'trails-note', 'Look out for these on the trail and tick each one you find.'),
    progress, list);
}
