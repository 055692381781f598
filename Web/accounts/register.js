// Create an account (ACC-1, ACC-2): a unique username and a password that meets the rules
// (shown while typing; the server's message is what counts), optional email and names. Units
// start from the browser's locale (ACC-10). The device identity's data comes along (ACC-8).

import { el, field, passwordField, form } from './forms.js';
import { register } from './session.js';
import { defaultUnits } from './units.js';
import { toast } from '../shell/toast.js';

/** @param {import('./index.js').AccountsContext} ctx @returns {import('./panel.js').View} */
export function registerView(ctx) {
  return {
    name: 'register',
    title: 'Create an account',
    render() {
      const username = field({
        label: 'Username', name: 'username', autocomplete: 'username', required: true, minLength: 3, maxLength: 32,
        pattern: '[A-Za-z0-9._\\-]+', hint: '3 to 32 letters, digits, dots, dashes or underscores.',
      });
      const password = passwordField({ label: 'Password', name: 'password', autocomplete: 'new-password', policy: true });
      const email = field({ label: 'Email (optional)', name: 'email', type: 'email', autocomplete: 'email', maxLength: 254, hint: 'Needed only to reset a forgotten password.' });
      const first = field({ label: 'First name (optional)', name: 'firstName', autocomplete: 'given-name', maxLength: 64 });
      const last = field({ label: 'Last name (optional)', name: 'lastName', autocomplete: 'family-name', maxLength: 64 });
      const f = form({
        name: 'register',
        submit: 'Create Account',
        children: [username.wrap, password.wrap, email.wrap, first.wrap, last.wrap],
        async action() {
          const optional = (/** @type {HTMLInputElement} */ i) => i.value.trim() || undefined;
          const me = await register({
            username: username.input.value.trim(),
            password: password.input.value,
            email: optional(email.input),
            firstName: optional(first.input),
            lastName: optional(last.input),
            units: defaultUnits(),
          });
          toast(`Welcome, ${me.username}`);
          ctx.panel.reset(ctx.views.home());
        },
      });
      // The rules are shown, not enforced here: the server decides and says why.
      f.el.noValidate = true;
      const privacy = el('p', 'hint', 'What Waymark keeps about you, and for how long: ', el('a', { href: '/privacy.html', target: '_blank', rel: 'noopener' }, 'Privacy'), '.');
      return [el('p', 'lead', 'Your permits and schedule on this browser move to the new account.'), f.el, privacy];
    },
  };
}
