// Pieces of the Plan's forms: a labelled field with its own message line (shown once the person
// has touched the field), checkboxes and radio groups, and a Save button that stays disabled,
// saying why, until the whole form is valid.

import { el } from '../shell/dom.js';

let uid = 0;
/** An id no other element of the page has. @param {string} name */
export const newId = (name) => `plan-${name}-${++uid}`;

/**
 * A field: its label, the control, an optional hint and the line that says what is wrong.
 * @param {{label: string, control: HTMLElement, hint?: string, key: string, cls?: string}} o
 */
export function field(o) {
  const control = /** @type {HTMLElement} */ (o.control);
  if (!control.id) control.id = newId(o.key);
  const error = el('p', { class: 'plan-field-error', id: `${control.id}-error`, hidden: true });
  const hint = o.hint ? el('p', { class: 'plan-hint', id: `${control.id}-hint` }, o.hint) : null;
  control.setAttribute('aria-describedby', [hint?.id, error.id].filter(Boolean).join(' '));
  const wrap = el('div', { class: `plan-field ${o.cls ?? ''}`.trim(), dataset: { field: o.key } },
    el('label', { htmlFor: control.id }, o.label), control, hint, error);
  return { wrap, control, error };
}

/**
 * A group of controls under a legend (weekdays, modes, the end of a repeat), with its message.
 * @param {{legend: string, key: string, children: any[], cls?: string}} o
 */
export function group(o) {
  const error = el('p', { class: 'plan-field-error', id: newId(`${o.key}-error`), hidden: true });
  const wrap = el('fieldset', { class: `plan-group ${o.cls ?? ''}`.trim(), dataset: { field: o.key }, 'aria-describedby': error.id },
    el('legend', null, o.legend), el('div', 'plan-group-items', o.children), error);
  return { wrap, error };
}

/** A checkbox with its label after it. @param {{label: string, name: string, value?: string, checked?: boolean, on?: any}} o */
export function checkbox(o) {
  const input = el('input', { type: 'checkbox', name: o.name, value: o.value ?? 'on', checked: !!o.checked, on: o.on });
  return { input, label: el('label', 'plan-check', input, el('span', null, o.label)) };
}

/**
 * Shows each field's message once the field was touched, and keeps Save disabled while any is
 * wrong, with the first problem next to it (so an untouched field is never a silent blocker).
 * @param {{errors: () => Record<string, string>, lines: Record<string, {error: HTMLElement, controls: HTMLElement[]}>,
 *   save: HTMLButtonElement, why: HTMLElement, form: HTMLElement}} o
 */
export function liveChecks(o) {
  const touched = new Set();
  for (const [key, line] of Object.entries(o.lines)) {
    for (const c of line.controls) {
      const touch = () => { touched.add(key); update(); };
      c.addEventListener('input', touch);
      c.addEventListener('change', touch);
    }
  }
  function update() {
    const errors = o.errors();
    for (const [key, line] of Object.entries(o.lines)) {
      const text = touched.has(key) ? errors[key] ?? '' : '';
      line.error.textContent = text;
      line.error.hidden = !text;
      for (const c of line.controls) {
        if (text) c.setAttribute('aria-invalid', 'true'); else c.removeAttribute('aria-invalid');
      }
    }
    const first = Object.values(errors)[0] ?? '';
    o.save.disabled = !!first;
    o.why.textContent = first ? `To save: ${first.charAt(0).toLowerCase()}${first.slice(1)}` : '';
    o.form.dataset.valid = String(!first);
    return errors;
  }
  return { update, touch: (/** @type {string} */ key) => { touched.add(key); update(); } };
}
