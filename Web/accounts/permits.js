// Your Permits (PRK-16): the permits you hold at the campus on the map, from those it issues,
// and the disabled placard, which counts at every campus; none by default. Permits held at
// other campuses are kept as they are. Works signed out with the device identity (ACC-8). Each
// change is saved at once; offline it waits in the outbox and is sent when Waymark can be
// reached (PRK-19).

import { el } from './forms.js';
import { getPermits, permitsWrite } from './api.js';
import { sendOrQueue } from './outbox.js';
import { problemText } from '../shell/api.js';
import { permitKinds, permitChip, PLACARD } from '../parking/permit-words.js';
import { savedNote } from './saved-reads.js';

/** @typedef {{siteId?: string, permit: string}} HeldPermit */

/** @param {import('./index.js').AccountsContext} ctx @returns {import('./panel.js').View} */
export function permitsView(ctx) {
  let alive = true;
  return {
    name: 'permits',
    title: 'Your Permits',
    leave() { alive = false; },
    render() {
      const lead = el('p', 'lead', 'The parking permits you hold. A lot that needs a permit you lack shows red in your weekly schedule.');
      const set = el('fieldset', 'permit-set');
      set.disabled = true;
      const status = el('p', 'save-status');
      status.setAttribute('role', 'status');
      status.dataset.testid = 'permits-status';
      status.textContent = 'Loading…';
      const elsewhere = el('p', 'muted small');
      elsewhere.hidden = true;

      /** @type {any} */
      let site = null;
      /** @type {HTMLInputElement[]} */
      let boxes = [];
      /** @type {HeldPermit[]} what the server holds; other campuses' entries are sent back as they are */
      let saved = [];
      const here = (/** @type {HeldPermit} */ h) => !h.siteId || h.siteId === site.id;

      const showSaved = (/** @type {HeldPermit[]} */ held) => {
        saved = held;
        const mine = held.filter(here).map((h) => h.permit);
        for (const b of boxes) b.checked = mine.includes(b.value);
        set.dataset.permits = boxes.filter((b) => b.checked).map((b) => b.value).join(',');
        const others = held.filter((h) => !here(h)).length;
        elsewhere.hidden = !others;
        elsewhere.textContent = `You also hold ${others === 1 ? 'a permit' : `${others} permits`} at another campus; choose that campus on the map to change ${others === 1 ? 'it' : 'them'}.`;
      };

      const build = () => {
        const issued = site.permits ?? [];
        set.replaceChildren(el('legend', issued.length ? 'permit-legend' : 'visually-hidden', issued.length ? `At ${site.name}` : 'Permits you hold'));
        if (!issued.length) set.append(el('p', 'muted', `${site.name} issues no parking permits of its own.`));
        boxes = permitKinds(site).map((k) => {
          const label = el('label', 'permit-choice');
          const box = /** @type {HTMLInputElement} */ (el('input'));
          box.type = 'checkbox';
          box.value = k.code;
          box.name = 'permit';
          label.append(box, permitChip(site, k.code));
          if (k.code === PLACARD.code) label.append(el('small', 'muted', 'Disabled parking placard · counts at every campus'));
          set.append(label);
          return box;
        });
      };

      Promise.all([ctx.site(), getPermits()]).then(([s, r]) => {
        if (!alive) return;
        site = s;
        build();
        showSaved(r.permits);
        set.disabled = false;
        status.textContent = savedNote(r) || (r.permits.length ? '' : 'You hold no permits.');
      }).catch((err) => { if (alive) status.textContent = problemText(err); });

      let pending = Promise.resolve();
      set.addEventListener('change', () => {
        const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
        /** @type {HeldPermit[]} */
        const wanted = [...saved.filter((h) => !here(h)),
          ...chosen.map((p) => (p === PLACARD.code ? { permit: p } : { siteId: site.id, permit: p }))];
        status.textContent = 'Saving…';
        pending = pending.then(async () => {
          try {
            const names = chosen.map((p) => permitKinds(site).find((k) => k.code === p)?.name ?? p).join(', ') || 'none';
            const r = await sendOrQueue(permitsWrite(wanted, `Your permits: ${names}`));
            if (!alive) return;
            if (r.sent) {
              showSaved(r.answer.permits);
              status.textContent = 'Saved';
            } else {
              showSaved(wanted);
              status.textContent = 'Offline: saved here and sent when Waymark can be reached.';
            }
          } catch (err) {
            if (!alive) return;
            showSaved(saved);
            status.textContent = problemText(err);
          }
        });
      });
      return [lead, set, elsewhere, status];
    },
  };
}
