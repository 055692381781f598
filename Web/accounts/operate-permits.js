// Operate › Permits (PRK-1, PRK-16): the permits the site issues, in the order drivers see them,
// each with its name and the colour of its hang tag. A permit's code is what lot rules and
// people's lists use, so it is fixed once made; a new permit's code follows its name until the
// operator types one. Saving replaces the list; the server refuses to drop a permit a lot's
// rules still require and says which lots.

import { el, field, form } from './forms.js';
import { ProblemError, problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { putSitePermits } from './api.js';
import { perLine, saveState } from './operate-parts.js';
import { removeButton, rowList } from './operate-rows.js';
import { PLACARD, DEFAULT_COLOUR } from '../parking/permit-words.js';

/** "Faculty/Staff" → "faculty-staff": lower-case letters, digits and hyphens, at most 32. */
export const codeFor = (/** @type {string} */ name) => name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
  .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32).replace(/-+$/, '');

/**
 * One permit: its name, tag colour and code (typed only for a new one).
 * @param {{code: string, name: string, colour: string, isNew?: boolean}} kind @param {() => void} remove
 */
function permitRow(kind, remove) {
  const row = el('fieldset', 'op-row op-permit');
  row.dataset.row = 'permit';
  if (kind.code) row.dataset.code = kind.code;
  const name = field({ label: 'Name', name: 'name', value: kind.name, required: true, maxLength: 40, autocomplete: 'off' });
  const colour = field({ label: 'Tag colour', name: 'colour', type: 'color', value: kind.colour || DEFAULT_COLOUR });
  colour.wrap.classList.add('op-colour');
  const parts = el('div', 'op-times', name.wrap, colour.wrap);
  /** @type {() => string} */
  let code = () => kind.code;
  if (kind.isNew) {
    const c = field({
      label: 'Code', name: 'code', required: true, maxLength: 32, pattern: '[a-z0-9][a-z0-9\\-]*', autocomplete: 'off',
      hint: 'What lot rules use: lower-case letters, digits and hyphens. It cannot be changed later.',
    });
    let typed = false;
    c.input.addEventListener('input', () => { typed = c.input.value !== ''; });
    name.input.addEventListener('input', () => { if (!typed) c.input.value = codeFor(name.input.value); });
    code = () => c.input.value.trim();
    row.append(el('legend', 'visually-hidden', 'New permit'),
      el('div', 'op-permit-head', el('p', 'muted small op-code', 'New permit'), removeButton('this new permit', remove)), parts, c.wrap);
  } else {
    row.append(el('legend', 'visually-hidden', `Permit ${kind.name}`),
      el('div', 'op-permit-head', el('p', 'muted small op-code', `Code: ${kind.code}`), removeButton(`the ${kind.name} permit`, remove)), parts);
  }
  return { el: row, value: () => ({ code: code(), name: name.input.value.trim(), colour: colour.input.value.toLowerCase() }) };
}

/**
 * @param {import('./operate-parts.js').OperateState} shared
 * @returns {{el: HTMLElement, show: () => void, dirty: () => boolean}}
 */
export function permitsSection(shared) {
  const { site } = shared;
  const root = el('div', 'op-section');
  let baseline = '';
  /** @type {(() => any[])|null} */
  let value = null;
  const dirty = () => !!value && JSON.stringify(value()) !== baseline;

  /** @param {string} [saidSaved] what the status line says once built */
  function build(saidSaved = '') {
    const saved = /** @type {{code: string, name: string, colour: string}[]} */ (site.permits ?? []);
    const rows = rowList({
      name: 'permits', entries: saved.map((k) => ({ ...k })), make: permitRow, add: 'Add a permit',
      blank: () => ({ code: '', name: '', colour: DEFAULT_COLOUR, isNew: true }),
      empty: 'This site issues no permits: every lot is open to anyone outside its permit rules. Add the permits your campus sells.',
    });
    value = rows.value;
    baseline = JSON.stringify(value());
    const { state, discard, say, edited } = saveState(dirty, () => build(), 'discard-permits');
    const f = form({
      name: 'site-permits',
      submit: 'Save',
      children: [
        el('p', 'field-hint', `The permits ${site.name} sells, as drivers see them in Your Permits and on each lot. `
          + `The ${PLACARD.name} placard is known on every site and is not listed here.`),
        ...rows.els,
      ],
      async action() {
        const wanted = /** @type {any[]} */ (value?.() ?? []);
        const before = new Map(saved.map((k) => [k.code, k.name]));
        const gone = [...before.keys()].filter((c) => !wanted.some((k) => k.code === c)).map((c) => before.get(c));
        if (gone.length && !(await confirm({
          name: 'remove-permits', title: gone.length === 1 ? `Remove ${gone[0]}?` : `Remove ${gone.length} permits?`,
          message: `${gone.join(', ')} will no longer be issued here and is taken off the list of everyone who holds it.`,
          confirm: 'Remove', danger: true,
        }))) return;
        say('Saving…');
        try {
          const answer = await putSitePermits(site.id, wanted);
          site.permits = answer.permits ?? [];
        } catch (err) {
          say('Not saved', 'dirty');
          f.error.show(err instanceof ProblemError ? perLine(problemText(err)) : problemText(err));
          f.error.el.scrollIntoView({ block: 'nearest' });
          return;
        }
        build('Saved. Drivers see it now.');
      },
    });
    f.el.classList.add('op-form');
    f.el.addEventListener('input', edited);
    f.el.addEventListener('change', edited);
    f.el.append(el('div', 'op-save-bar', f.submit, discard, state));
    root.replaceChildren(f.el);
    if (saidSaved) say(saidSaved, 'saved');
  }

  return {
    el: root,
    dirty,
    show() { if (!value) build(); },
  };
}
