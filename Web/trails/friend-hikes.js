// A friend's page (TRL-8): their picture and name, a Message button and their hikes, newest
// first, ten at a time; a hike's path shows on the map. Only friends see it.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { OfflineError, ProblemError, problemText } from '../shell/api.js';
import { friendHikes, friendHike } from './api.js';
import { hikeFacts } from './hikes.js';
import { personLine } from './friends.js';

const PAGE = 10;

/**
 * @param {string} userId
 * @param {{message: (personId: string) => void, showPath: (points: number[][]|null, fit?: boolean) => void}} o
 */
export function friendHikesScreen(userId, o) {
  const head = el('div', { id: 'friend-person' });
  const list = el('ul', { class: 'hike-list', id: 'friend-hikes' });
  const status = el('p', { class: 'trails-note', role: 'status' });
  const more = el('button', { type: 'button', class: 'trails-more', id: 'friend-hikes-more', hidden: true, on: { click: () => load(list.children.length) } }, 'See more');
  let zone = /** @type {string|undefined} */ (undefined);

  function item(/** @type {any} */ h) {
    const show = el('button', { type: 'button', class: 'link-button', dataset: { action: 'show' }, on: { click: async () => {
      try { const full = await friendHike(userId, h.id); o.showPath(full.fixes.map((f) => [f[1], f[2]]), true); } catch (err) { toast(problemText(err)); }
    } } }, 'Show on the map');
    return el('li', { class: 'hike-item', dataset: { hike: h.id } }, ...hikeFacts(h, zone), el('p', 'trail-comment-actions', show));
  }

  async function load(offset = 0) {
    try {
      const page = await friendHikes(userId, PAGE, offset);
      zone = page.timeZone;
      if (!offset) {
        head.replaceChildren(el('div', 'person-item', personLine(page.person),
          el('button', { type: 'button', class: 'acc-button primary', id: 'friend-message', on: { click: () => o.message(page.person.id) } }, 'Message')));
        list.replaceChildren();
      }
      list.append(...page.hikes.map(item));
      status.textContent = page.total ? `${page.total} ${page.total === 1 ? 'hike' : 'hikes'}` : `${page.person.name} has not saved a hike yet.`;
      more.hidden = list.children.length >= page.total;
    } catch (err) {
      status.textContent = err instanceof ProblemError && err.status === 404 ? 'Only friends see each other’s hikes, and this person is not your friend.'
        : err instanceof OfflineError ? 'You are offline: a friend’s hikes can be read when Waymark can be reached.' : problemText(err);
    }
  }

  load();
  return el('article', { class: 'trail-page', dataset: { screen: 'friend' } },
    el('a', { class: 'trails-back', href: '/trails/friends' }, '‹ Friends'), head,
    el('h2', 'trails-title', 'Hikes'), status, list, more);
}
