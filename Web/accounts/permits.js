// Your Permits (PRK-16): which of Green, Yellow, Black and Handicap you hold; none by default.
// Works signed out with the device identity (ACC-8). Each change is saved at once; offline it
// waits in the outbox and is sent when Waymark can be reached (PRK-19).

import { el } from './forms.js';
import { getPermits, permitsWrite } from './api.js';
import { sendOrQueue } from './outbox.js';
import { problemText } from '../shell/api.js';
import { PERMIT_NAMES } from '../parking/format.js';
import { savedNote } from './saved-reads.js';

const ORDER = ['green', 'yellow', 'black', 'handicap'];

/** @returns {import('./panel.js').View} */
export function permitsView() {
  let alive = true;
  return {
    name: 'permits',
    title: 'Your Permits',
    leave() { alive = false; },
    render() {
      const lead = el('p', 'lead', 'The parking permits you hold. A lot that needs a permit you lack shows red in your weekly schedule.');
      const set = el('fieldset', 'permit-set');
      set.append(el('legend', 'visually-hidden', 'Permits you hold'));
      set.disabled = true;
      const status = el('p', 'save-status');
      status.setAttribute('role', 'status');
      status.dataset.testid = 'permits-status';
      status.textContent = 'Loading…';
      /** @type {HTMLInputElement[]} */
      const boxes = ORDER.map((p) => {
        const label = el('label', 'permit-choice');
        const box = /** @type {HTMLInputElement} */ (el('input'));
        box.type = 'checkbox';
        box.value = p;
        box.name = 'permit';
        label.append(box, el('span', `permit ${p}`, PERMIT_NAMES[p]));
        set.append(label);
        return box;
      });
      let saved = /** @type {string[]} */ ([]);
      const showSaved = (/** @type {string[]} */ permits) => {
        saved = permits;
        for (const b of boxes) b.checked = permits.includes(b.value);
        set.dataset.permits = permits.join(',');
      };
      getPermits().then((r) => {
        if (!alive) return;
        showSaved(r.permits);
        set.disabled = false;
        status.textContent = savedNote(r) || (r.permits.length ? '' : 'You hold no permits.');
      }).catch((err) => { if (alive) status.textContent = problemText(err); });

      let pending = Promise.resolve();
      set.addEventListener('change', () => {
        const wanted = boxes.filter((b) => b.checked).map((b) => b.value);
        status.textContent = 'Saving…';
        pending = pending.then(async () => {
          try {
            const names = wanted.map((p) => PERMIT_NAMES[p]).join(', ') || 'none';
            const r = await sendOrQueue(permitsWrite(wanted, `Your permits: ${names}`));
            if (!alive) return;
            if (r.sent) {
              showSaved(r.answer.permits);
              status.textContent = 'Saved';
            } else {
              saved = wanted;
              set.dataset.permits = wanted.join(',');
              status.textContent = 'Offline: saved here and sent when Waymark can be reached.';
            }
          } catch (err) {
            if (!alive) return;
            showSaved(saved);
            status.textContent = problemText(err);
          }
        });
      });
      return [lead, set, status];
    },
  };
}
