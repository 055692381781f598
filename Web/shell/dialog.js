// One modal dialog for confirmations and choices, built on <dialog> so focus trapping, Escape
// and the backdrop come from the browser; closing returns focus to what had it before.

import { el } from './dom.js';

/**
 * @typedef {{id: string, label: string, kind?: 'primary'|'danger'|'plain'}} Action
 * @param {{title: string, message?: string, warning?: string, actions: Action[], name?: string}} o
 *   warning: a line in red under the message (seed 7.1.1.2: a permit the user lacks)
 * @returns {Promise<string|null>} the chosen action's id, null when dismissed
 */
export function choose(o) {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('dialog'));
  const title = /** @type {HTMLElement} */ (dialog.querySelector('.dialog-title'));
  const message = /** @type {HTMLElement} */ (dialog.querySelector('.dialog-message'));
  const actions = /** @type {HTMLElement} */ (dialog.querySelector('.dialog-actions'));
  const warning = /** @type {HTMLElement|null} */ (dialog.querySelector('.dialog-warning'));
  if (dialog.open) dialog.close('');
  title.textContent = o.title;
  message.textContent = o.message ?? '';
  message.hidden = !o.message;
  if (warning) {
    warning.textContent = o.warning ?? '';
    warning.hidden = !o.warning;
  }
  dialog.dataset.name = o.name ?? '';
  actions.replaceChildren(...o.actions.map((a) => el('button', {
    type: 'button', class: `dialog-button ${a.kind ?? 'plain'}`, dataset: { action: a.id }, on: { click: () => dialog.close(a.id) },
  }, a.label)));
  const before = /** @type {HTMLElement|null} */ (document.activeElement);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      // Browsers that do not give focus back themselves leave it on the page's body.
      if ((!document.activeElement || document.activeElement === document.body) && before?.isConnected) before.focus({ preventScroll: true });
      resolve(dialog.returnValue || null);
    }, { once: true });
    dialog.showModal();
    /** @type {HTMLElement|null} */ (actions.querySelector('.primary, .danger') ?? actions.querySelector('button'))?.focus();
  });
}

/** @param {{title: string, message?: string, warning?: string, confirm: string, danger?: boolean, name?: string}} o */
export async function confirm(o) {
  const id = await choose({
    title: o.title, message: o.message, warning: o.warning, name: o.name,
    actions: [{ id: 'cancel', label: 'Cancel' }, { id: 'confirm', label: o.confirm, kind: o.danger ? 'danger' : 'primary' }],
  });
  return id === 'confirm';
}

/** @param {{title: string, message: string, name?: string}} o */
export async function inform(o) {
  await choose({ title: o.title, message: o.message, name: o.name, actions: [{ id: 'ok', label: 'OK', kind: 'primary' }] });
}
