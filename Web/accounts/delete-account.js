// Delete Account (ACC-5): a warning, the password, a last confirmation; then the server erases
// every row of the account and this browser forgets it (ACC-3).

import { el, passwordField, form } from './forms.js';
import { accountDeleted } from './session.js';
import { deleteAccount } from './api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';

/** @param {import('./index.js').AccountsContext} ctx @returns {import('./panel.js').View} */
export function deleteAccountView(ctx) {
  return {
    name: 'delete-account',
    title: 'Delete Account',
    render() {
      const warning = el('p', 'warning', 'This erases your account, profile, picture, permits and weekly schedule from Waymark for good. You will be signed out on every device. This cannot be undone.');
      const password = passwordField({ label: 'Your password', name: 'password', autocomplete: 'current-password' });
      const f = form({
        name: 'delete-account',
        submit: 'Delete Account',
        danger: true,
        children: [password.wrap],
        async action() {
          const sure = await confirm({
            name: 'delete-account', title: 'Delete your account?',
            message: 'Everything Waymark keeps about you will be erased. This cannot be undone.',
            confirm: 'Delete Forever', danger: true,
          });
          if (!sure) return;
          await deleteAccount(password.input.value);
          await accountDeleted();
          toast('Your account has been deleted');
          ctx.panel.reset(ctx.views.home());
        },
      });
      return [warning, f.el];
    },
  };
}
