// The bar at the bottom of the screen while a spot is held (PRK-9, PRK-10): which spot, how
// long is left, how far it is, directions in the phone's maps app and Cancel; when the sensor
// sees a car on the spot, the question "was it you?" with Yes and No.

import { el } from '../shell/dom.js';
import { countdown, countdownWords } from './hold-format.js';

/**
 * @param {{onCancel: () => void, onAnswer: (wasMe: boolean) => void, onShow: () => void}} o
 */
export function createHoldBar(o) {
  const root = /** @type {HTMLElement} */ (document.getElementById('hold-bar'));
  const app = /** @type {HTMLElement} */ (document.getElementById('app'));
  /** @type {HTMLElement|null} */
  let timer = null;
  /** @type {HTMLElement|null} */
  let distance = null;
  let lastWords = '';

  function button(label, action, cls) {
    const b = /** @type {HTMLButtonElement} */ (el('button', cls, label));
    b.type = 'button';
    b.dataset.action = action;
    return b;
  }

  function link(label, href, testid) {
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'hold-link', label));
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener';
    a.dataset.testid = testid;
    return a;
  }

  root.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest('button[data-action]');
    if (!b || /** @type {HTMLButtonElement} */ (b).disabled) return;
    const action = /** @type {HTMLElement} */ (b).dataset.action;
    if (action === 'cancel') o.onCancel();
    else if (action === 'show') o.onShow();
    else if (action === 'yes') o.onAnswer(true);
    else if (action === 'no') o.onAnswer(false);
  });

  // The lot card sheet moves up above the bar instead of hiding it.
  const observer = new ResizeObserver(() => {
    app.style.setProperty('--hold-bar-height', root.hidden ? '0px' : `${root.getBoundingClientRect().height}px`);
  });
  observer.observe(root);

  return {
    /**
     * @param {any} hold
     * @param {{lotCode: string, level: string|null, remainingMs: number, distance: string|null, busy?: boolean, note?: string}} info
     */
    render(hold, info) {
      const asking = hold.status === 'asking';
      root.dataset.holdId = hold.id;
      root.dataset.spotId = hold.spotId;
      root.dataset.status = hold.status;
      const head = el('div', 'hold-head');
      const badge = el('div', 'card-badge hold-badge', info.lotCode);
      badge.setAttribute('aria-hidden', 'true');
      const title = el('div', 'hold-title');
      const h2 = el('h2', '', asking ? `Spot ${hold.label} was just taken` : `Spot ${hold.label} is held for you`);
      h2.id = 'hold-bar-title';
      h2.tabIndex = -1;
      const where = el('p', 'hold-where', [hold.lotName, info.level].filter(Boolean).join(' · '));
      distance = el('span', 'hold-distance');
      distance.dataset.testid = 'hold-distance';
      where.append(distance);
      title.append(h2, where);
      timer = el('div', 'hold-timer');
      timer.setAttribute('role', 'timer');
      timer.dataset.testid = 'hold-timer';
      head.append(badge, title, timer);
      const parts = [head];

      if (asking) {
        const q = el('p', 'hold-question', `A car just parked on spot ${hold.label}. Was it you?`);
        q.dataset.testid = 'hold-question';
        const actions = el('div', 'hold-actions');
        const yes = button('Yes, I parked', 'yes', 'acc-button primary');
        const no = button('No, find another spot', 'no', 'acc-button');
        yes.disabled = !!info.busy;
        no.disabled = !!info.busy;
        actions.append(yes, no);
        parts.push(q, actions);
      } else {
        if (info.note) {
          const n = el('p', 'hold-note', info.note);
          n.dataset.testid = 'hold-note';
          parts.push(n);
        }
        if (hold.permitWarning) {
          const w = el('p', 'permit-warning', hold.permitWarning);
          w.dataset.testid = 'hold-permit-warning';
          parts.push(w);
        }
        const actions = el('div', 'hold-actions');
        const show = button('Show', 'show', 'acc-button');
        show.setAttribute('aria-label', `Show spot ${hold.label} on the map`);
        const cancel = button('Cancel', 'cancel', 'acc-button');
        cancel.setAttribute('aria-label', `Cancel the hold on spot ${hold.label}`);
        cancel.disabled = !!info.busy;
        actions.append(
          link('Apple Maps', hold.directions.appleMaps, 'directions-apple'),
          link('Google Maps', hold.directions.googleMaps, 'directions-google'),
          show, cancel,
        );
        parts.push(actions);
      }
      root.replaceChildren(...parts);
      lastWords = '';
      this.tick(info);
      const wasHidden = root.hidden;
      root.hidden = false;
      app.classList.add('holding');
      if (wasHidden) {
        root.classList.add('entering');
        requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove('entering')));
      }
    },

    /** @param {{remainingMs: number, distance: string|null}} info */
    tick(info) {
      if (timer) {
        timer.textContent = countdown(info.remainingMs);
        timer.dataset.remaining = String(Math.max(0, Math.ceil(info.remainingMs / 1000)));
        // Screen readers get the words once a minute, not a new number every second.
        const words = countdownWords(Math.ceil(info.remainingMs / 60_000) * 60_000);
        if (words !== lastWords) { timer.setAttribute('aria-label', words); lastWords = words; }
      }
      if (distance) distance.textContent = info.distance ? ` · ${info.distance} away` : '';
    },

    hide() {
      root.hidden = true;
      root.replaceChildren();
      delete root.dataset.holdId;
      delete root.dataset.spotId;
      delete root.dataset.status;
      timer = null;
      distance = null;
      app.classList.remove('holding');
      app.style.setProperty('--hold-bar-height', '0px');
    },

    focus() { document.getElementById('hold-bar-title')?.focus({ preventScroll: true }); },
  };
}
