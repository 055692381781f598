// "Waiting to send" (PRK-19): every write made while Waymark could not be reached, oldest
// first; what waits, and what the server refused with its reason, Try again and Discard.

import { el, button } from './forms.js';
import { writes, onChange, flush, retry, discard } from './outbox.js';

/** @returns {import('./panel.js').View} */
export function outboxView() {
  let stop = () => {};
  return {
    name: 'outbox',
    title: 'Waiting to Send',
    leave() { stop(); },
    render() {
      const lead = el('p', 'lead', 'Changes made while Waymark could not be reached. They are sent by themselves when it can be; each is made only once.');
      const list = el('ul', 'outbox-list');
      list.dataset.testid = 'outbox';
      const empty = el('p', 'muted', 'Nothing is waiting: everything has been sent.');
      const now = button('Send now', () => { flush(); }, 'acc-button primary');
      now.dataset.action = 'send-now';
      const draw = () => {
        const all = writes();
        empty.hidden = all.length > 0;
        now.hidden = !all.some((w) => w.state === 'pending');
        list.replaceChildren(...all.map((w) => {
          const li = el('li', `outbox-item ${w.state}`);
          li.dataset.writeId = w.id;
          li.dataset.state = w.state;
          li.dataset.kind = w.kind;
          const when = new Date(w.createdAt).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
          li.append(el('strong', '', w.label), el('small', 'muted', `${w.state === 'failed' ? 'Not sent' : 'Waiting'} · made ${when}`));
          if (w.state === 'failed') {
            li.append(el('p', 'warning small', w.error ?? 'The server refused it.'));
            const row = el('div', 'booking-actions');
            const again = button('Try again', () => { retry(w.id); }, 'acc-button primary');
            again.dataset.action = 'retry';
            const drop = button('Discard', () => discard(w.id), 'acc-button');
            drop.dataset.action = 'discard';
            row.append(again, drop);
            li.append(row);
          }
          return li;
        }));
      };
      stop();
      stop = onChange(draw);
      draw();
      return [lead, empty, list, now];
    },
  };
}
