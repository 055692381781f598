// Update Account (ACC-4, ACC-10): picture (upload or an https address, else the default
// avatar), email, names, "About me" up to 300 characters, units; then username and password,
// each only with the current password.

import { el, button, field, passwordField, form, errorLine } from './forms.js';
import { cachedMe, rememberMe, useSession } from './session.js';
import { putProfile, putPicture, deletePicture, changeUsername, changePassword } from './api.js';
import { UNIT_CHOICES, defaultUnits } from './units.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';

const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const PICTURE_MAX = 1024 * 1024;
const ABOUT_MAX = 300;

/** @param {import('./index.js').AccountsContext} ctx @returns {import('./panel.js').View} */
export function updateAccountView(ctx) {
  return {
    name: 'update',
    title: 'Update Account',
    render() {
      const me = cachedMe();
      if (!me) return el('p', 'muted', 'Sign in to update your account.');
      return [pictureSection(me), profileSection(me), usernameSection(), passwordSection()];
    },
  };
}

/** @param {import('./session.js').Me} me */
function pictureSection(me) {
  const sec = el('section', 'acc-section picture');
  sec.append(el('h3', '', 'Picture'));
  const row = el('div', 'picture-row');
  const img = /** @type {HTMLImageElement} */ (el('img', 'avatar large'));
  img.alt = 'Your picture';
  img.width = 88;
  img.height = 88;
  img.dataset.testid = 'picture';
  const actions = el('div', 'picture-actions');
  const file = /** @type {HTMLInputElement} */ (el('input', 'visually-hidden'));
  file.type = 'file';
  file.accept = PICTURE_TYPES.join(',');
  file.name = 'picture';
  file.tabIndex = -1;
  file.setAttribute('aria-hidden', 'true');
  const error = errorLine();
  const upload = button('Upload Picture', () => file.click());
  const remove = button('Use Default Avatar', async () => {
    error.clear();
    try { show(await deletePicture()); toast('Picture removed'); } catch (err) { error.show(problemText(err)); }
  });
  const show = (/** @type {import('./session.js').Me} */ m) => {
    rememberMe(m);
    // Same address, new picture: make the browser load it again.
    img.src = m.pictureURL + (m.pictureURL.includes('?') ? '&' : '?') + `v=${Date.now()}`;
    remove.hidden = !m.hasPicture;
  };
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (!chosen) return;
    error.clear();
    if (!PICTURE_TYPES.includes(chosen.type)) { error.show('Choose a PNG, JPEG or WebP picture.'); return; }
    if (chosen.size > PICTURE_MAX) { error.show('That picture is larger than 1 MB. Choose a smaller one.'); return; }
    upload.disabled = true;
    try {
      show(await putPicture(chosen));
      toast('Picture updated');
    } catch (err) {
      error.show(problemText(err));
    } finally {
      upload.disabled = false;
    }
  });
  show(me);
  actions.append(upload, remove, el('p', 'field-hint', 'PNG, JPEG or WebP, up to 1 MB. Or give a picture address below.'));
  row.append(img, actions);
  sec.append(row, file, error.el);
  return sec;
}

/** @param {import('./session.js').Me} me */
function profileSection(me) {
  const sec = el('section', 'acc-section');
  sec.append(el('h3', '', 'Profile'));
  const email = field({ label: 'Email', name: 'email', type: 'email', autocomplete: 'email', maxLength: 254, value: me.email ?? '' });
  const first = field({ label: 'First name', name: 'firstName', autocomplete: 'given-name', maxLength: 64, value: me.firstName ?? '' });
  const last = field({ label: 'Last name', name: 'lastName', autocomplete: 'family-name', maxLength: 64, value: me.lastName ?? '' });

  const aboutWrap = el('div', 'field');
  const aboutLabel = /** @type {HTMLLabelElement} */ (el('label', '', 'About me'));
  const about = /** @type {HTMLTextAreaElement} */ (el('textarea'));
  about.id = 'acc-about';
  about.name = 'about';
  about.maxLength = ABOUT_MAX;
  about.rows = 3;
  about.value = me.about ?? '';
  aboutLabel.htmlFor = about.id;
  const counter = el('p', 'field-hint counter');
  counter.id = 'acc-about-count';
  counter.dataset.testid = 'about-count';
  counter.setAttribute('aria-live', 'polite');
  about.setAttribute('aria-describedby', counter.id);
  const count = () => {
    const n = [...about.value].length;
    counter.textContent = `${n} / ${ABOUT_MAX}`;
    counter.classList.toggle('full', n >= ABOUT_MAX);
  };
  about.addEventListener('input', count);
  count();
  aboutWrap.append(aboutLabel, about, counter);

  const picture = field({
    label: 'Picture address', name: 'pictureURL', type: 'url', maxLength: 2048, placeholder: 'https://…',
    value: me.pictureURL?.startsWith('https://') ? me.pictureURL : '',
    hint: 'An https:// image, shown when no picture is uploaded.',
  });

  const units = el('fieldset', 'units');
  units.append(el('legend', '', 'Units'));
  const current = me.units ?? defaultUnits();
  /** @type {Record<string, HTMLSelectElement>} */
  const selects = {};
  for (const [kind, label] of /** @type {const} */ ([['distance', 'Distance'], ['temperature', 'Temperature'], ['elevation', 'Elevation']])) {
    const wrap = el('div', 'field inline');
    const l = /** @type {HTMLLabelElement} */ (el('label', '', label));
    const s = /** @type {HTMLSelectElement} */ (el('select'));
    s.id = `acc-units-${kind}`;
    s.name = kind;
    l.htmlFor = s.id;
    for (const [value, text] of UNIT_CHOICES[kind]) {
      const o = /** @type {HTMLOptionElement} */ (el('option', '', text));
      o.value = value;
      s.append(o);
    }
    s.value = current[kind];
    selects[kind] = s;
    wrap.append(l, s);
    units.append(wrap);
  }

  const f = form({
    name: 'profile', submit: 'Save Profile',
    children: [email.wrap, first.wrap, last.wrap, aboutWrap, picture.wrap, units],
    async action() {
      const text = (/** @type {HTMLInputElement|HTMLTextAreaElement} */ i) => i.value.trim() || undefined;
      const m = await putProfile({
        email: text(email.input), firstName: text(first.input), lastName: text(last.input),
        about: about.value.trim(), pictureURL: text(picture.input),
        units: { distance: selects.distance.value, temperature: selects.temperature.value, elevation: selects.elevation.value },
      });
      rememberMe(m);
      toast('Profile saved');
    },
  });
  sec.append(f.el);
  return sec;
}

function usernameSection() {
  const sec = el('section', 'acc-section');
  sec.append(el('h3', '', 'Username'));
  const name = field({
    label: 'New username', name: 'newUsername', autocomplete: 'username', required: true, minLength: 3, maxLength: 32,
    pattern: '[A-Za-z0-9._\\-]+', value: cachedMe()?.username ?? '',
  });
  const current = passwordField({ label: 'Current password', name: 'currentPassword', autocomplete: 'current-password' });
  const f = form({
    name: 'username', submit: 'Change Username', children: [name.wrap, current.wrap],
    async action() {
      const m = await changeUsername(current.input.value, name.input.value.trim());
      rememberMe(m);
      current.input.value = '';
      toast(`Your username is now ${m.username}`);
    },
  });
  sec.append(f.el);
  return sec;
}

function passwordSection() {
  const sec = el('section', 'acc-section');
  sec.append(el('h3', '', 'Password'));
  const current = passwordField({ label: 'Current password', name: 'currentPassword', autocomplete: 'current-password' });
  const next = passwordField({ label: 'New password', name: 'newPassword', autocomplete: 'new-password', policy: true });
  const f = form({
    name: 'password', submit: 'Change Password', children: [current.wrap, next.wrap],
    async action() {
      const session = await changePassword(current.input.value, next.input.value);
      useSession(session);
      current.input.value = '';
      next.input.value = '';
      next.input.dispatchEvent(new Event('input'));
      toast('Password changed · other devices are signed out');
    },
  });
  f.el.noValidate = true;
  sec.append(f.el);
  return sec;
}
