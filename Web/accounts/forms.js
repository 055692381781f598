// Small builders for the Accounts forms: labelled fields, a password field that shows the
// ACC-2 rules while typing, an error line the screen reader announces, and a submit wrapper
// that shows the server's own message when a request fails.

import { problemText } from '../shell/api.js';
import { el } from '../shell/dom.js';
import { checkPassword } from './password-policy.js';

let uid = 0;

export { el };

/** @param {string} label @param {() => void} onClick @param {string} [cls] */
export function button(label, onClick, cls = 'acc-button') {
  const b = /** @type {HTMLButtonElement} */ (el('button', cls, label));
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/**
 * @param {{label: string, name: string, type?: string, autocomplete?: string, required?: boolean,
 *   maxLength?: number, minLength?: number, value?: string, hint?: string, inputMode?: string, pattern?: string,
 *   placeholder?: string}} o
 */
export function field(o) {
  const id = `acc-${o.name}-${++uid}`;
  const wrap = el('div', 'field');
  const label = /** @type {HTMLLabelElement} */ (el('label', '', o.label));
  label.htmlFor = id;
  const input = /** @type {HTMLInputElement} */ (el('input'));
  input.id = id;
  input.name = o.name;
  input.type = o.type ?? 'text';
  if (o.autocomplete) input.autocomplete = /** @type {any} */ (o.autocomplete);
  if (o.required) input.required = true;
  if (o.maxLength) input.maxLength = o.maxLength;
  if (o.minLength) input.minLength = o.minLength;
  if (o.inputMode) input.inputMode = o.inputMode;
  if (o.pattern) input.pattern = o.pattern;
  if (o.placeholder) input.placeholder = o.placeholder;
  if (o.type !== 'password') { input.autocapitalize = 'off'; input.spellcheck = false; }
  input.value = o.value ?? '';
  wrap.append(label, input);
  if (o.hint) {
    const hint = el('p', 'field-hint', o.hint);
    hint.id = `${id}-hint`;
    input.setAttribute('aria-describedby', hint.id);
    wrap.append(hint);
  }
  return { wrap, input };
}

/**
 * A password input with a show/hide switch; with `policy`, the ACC-2 rules are listed under
 * it and tick off as they are met.
 * @param {{label: string, name: string, autocomplete: string, policy?: boolean}} o
 */
export function passwordField(o) {
  const f = field({ label: o.label, name: o.name, type: 'password', autocomplete: o.autocomplete, required: true, maxLength: 256 });
  const row = el('div', 'password-row');
  const toggle = /** @type {HTMLButtonElement} */ (el('button', 'show-password', 'Show'));
  toggle.type = 'button';
  toggle.setAttribute('aria-pressed', 'false');
  toggle.setAttribute('aria-label', `Show ${o.label.toLowerCase()}`);
  toggle.addEventListener('click', () => {
    const show = f.input.type === 'password';
    f.input.type = show ? 'text' : 'password';
    toggle.textContent = show ? 'Hide' : 'Show';
    toggle.setAttribute('aria-pressed', String(show));
  });
  f.input.replaceWith(row);
  row.append(f.input, toggle);
  if (o.policy) {
    const list = el('ul', 'password-rules');
    list.id = `${f.input.id}-rules`;
    list.setAttribute('aria-label', 'Password rules');
    list.dataset.testid = 'password-rules';
    f.input.setAttribute('aria-describedby', list.id);
    const update = () => {
      list.replaceChildren(...checkPassword(f.input.value).map((r) => {
        const li = el('li', r.ok ? 'ok' : '', r.label);
        li.dataset.rule = r.id;
        li.dataset.ok = String(r.ok);
        li.prepend(el('span', 'rule-mark', r.ok ? '✓' : '•'));
        const state = el('span', 'visually-hidden', r.ok ? ' (met)' : ' (not yet)');
        li.append(state);
        return li;
      }));
      list.dataset.allOk = String(checkPassword(f.input.value).every((r) => r.ok));
    };
    f.input.addEventListener('input', update);
    update();
    f.wrap.append(list);
  }
  return f;
}

/** The line under a form that says what went wrong (announced as an alert). */
export function errorLine() {
  const p = el('p', 'form-error');
  p.setAttribute('role', 'alert');
  p.hidden = true;
  return {
    el: p,
    /** @param {string} text */
    show(text) { p.textContent = text; p.hidden = false; },
    clear() { p.textContent = ''; p.hidden = true; },
  };
}

/**
 * A form whose submit runs `action` once at a time; a failure shows the server's message.
 * @param {{name: string, submit: string, children: Node[], action: () => Promise<void>, danger?: boolean}} o
 */
export function form(o) {
  const f = /** @type {HTMLFormElement} */ (el('form', 'acc-form'));
  f.dataset.form = o.name;
  f.noValidate = false;
  const error = errorLine();
  const go = /** @type {HTMLButtonElement} */ (el('button', `acc-button ${o.danger ? 'danger' : 'primary'}`, o.submit));
  go.type = 'submit';
  f.append(...o.children, error.el, go);
  let busy = false;
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    busy = true;
    go.disabled = true;
    go.setAttribute('aria-busy', 'true');
    error.clear();
    try {
      await o.action();
    } catch (err) {
      console.warn(err);
      error.show(problemText(err));
    } finally {
      busy = false;
      go.disabled = false;
      go.removeAttribute('aria-busy');
    }
  });
  return { el: f, error, submit: go };
}
