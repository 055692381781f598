// Forgot password (ACC-9): username or email → a 6-digit code by email → the code → a new
// password, after which the person is signed in. A wrong code says so; the fourth wrong code
// ends the attempt and returns to sign-in with the server's message.

import { el, button, field, passwordField, form } from './forms.js';
import { ProblemError } from '../shell/api.js';
import { requestPasswordReset, verifyResetCode, completePasswordReset } from './api.js';
import { useSession } from './session.js';
import { toast } from '../shell/toast.js';

/** @param {import('./index.js').AccountsContext} ctx @returns {import('./panel.js').View} */
export function forgotPasswordView(ctx) {
  /** @type {'login'|'code'|'password'} */
  let step = 'login';
  let login = '';
  let resetToken = '';
  /** @type {HTMLElement} */
  let root;

  function go(/** @type {typeof step} */ next) {
    step = next;
    const fresh = draw();
    root.replaceWith(fresh);
    root = fresh;
    /** @type {HTMLInputElement|null} */ (root.querySelector('input'))?.focus();
  }

  function draw() {
    const box = el('div', 'forgot');
    box.dataset.step = step;
    if (step === 'login') {
      const who = field({ label: 'Username or email', name: 'login', autocomplete: 'username', required: true, maxLength: 254, value: login });
      const f = form({
        name: 'reset-request', submit: 'Send Code', children: [who.wrap],
        async action() {
          login = who.input.value.trim();
          await requestPasswordReset(login);
          go('code');
        },
      });
      box.append(el('p', 'lead', 'We will email a 6-digit code to the address on your account.'), f.el);
    } else if (step === 'code') {
      const code = field({
        label: '6-digit code', name: 'code', autocomplete: 'one-time-code', inputMode: 'numeric', required: true,
        maxLength: 6, pattern: '[0-9]{6}', placeholder: '123456',
      });
      const f = form({
        name: 'reset-verify', submit: 'Check Code', children: [code.wrap],
        async action() {
          try {
            const answer = await verifyResetCode(login, code.input.value.trim());
            resetToken = answer.resetToken;
            go('password');
          } catch (err) {
            if (err instanceof ProblemError && err.kind === 'reset-ended') {
              ctx.panel.reset(ctx.views.signedOut({
                notice: err.problem?.detail || 'Too many wrong codes. Start again if you still need to reset your password.',
              }));
              return;
            }
            code.input.select();
            throw err;
          }
        },
      });
      const sent = el('p', 'lead', `If an account matches “${login}” and has an email address, a code is on its way. It works for 15 minutes.`);
      const again = button('Send a new code', () => go('login'), 'link-button');
      box.append(sent, f.el, again);
    } else {
      const password = passwordField({ label: 'New password', name: 'newPassword', autocomplete: 'new-password', policy: true });
      const f = form({
        name: 'reset-complete', submit: 'Set Password', children: [password.wrap],
        async action() {
          const session = await completePasswordReset(resetToken, password.input.value);
          useSession(session);
          toast('Password changed · you are signed in');
          ctx.panel.reset(ctx.views.home());
        },
      });
      f.el.noValidate = true;
      box.append(el('p', 'lead', 'Choose a new password.'), f.el);
    }
    return box;
  }

  return {
    name: 'forgot',
    title: 'Forgot Password',
    render() {
      root = draw();
      return root;
    },
  };
}
