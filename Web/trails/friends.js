// The Friends screen (TRL-8, TRL-9; Trailz 3.2.6.5.8, 3.2.6.8): find people by username and ask
// them, answer the requests you received, your friends (their hikes; Message; long-press one, or its ⋯
// button, to remove or block), the requests you sent and the people you blocked, and the switch
// that shares your position with friends — off until you turn it on.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { choose, confirm } from '../shell/dialog.js';
import { OfflineError, problemText } from '../shell/api.js';
import { signedIn } from '../accounts/session.js';
import { searchPeople, getFriends, befriend, unfriend, setBlocked } from './api.js';
import { keepCopy, savedCopy } from '../shell/saved-copies.js';
import { seenAt } from './friend-map.js';

const LONG_PRESS_MS = 550;
const dated = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** A person's picture and names, for every list of people. @param {any} p */
export function personLine(p, ...extra) {
  return el('div', 'person-line',
    el('img', { class: 'person-picture', src: p.pictureUrl, alt: '', width: 40, height: 40, loading: 'lazy' }),
    el('div', 'person-names', el('strong', null, p.name), p.name !== p.username ? el('span', 'muted', `@${p.username}`) : null, ...extra));
}

/**
 * @param {{go: (path: string) => void, message: (personId: string) => void,
 *   sharing: ReturnType<typeof import('./friend-map.js').startFriendMap>}} o
 */
export function friendsScreen(o) {
  const back = el('a', { class: 'trails-back', href: '/trails' }, '‹ Trails');
  if (!signedIn()) {
    return el('article', { class: 'trail-page', dataset: { screen: 'friends' } }, back, el('h2', 'trails-title', 'Friends'),
      el('p', 'trails-note', 'Friends find each other by username, write to each other and, if both want, see each other on the map. ',
        el('a', { href: '/me' }, 'Sign in or create an account'), ' to add friends.'));
  }
  const status = el('p', { class: 'trails-note', role: 'status', id: 'friends-status' });
  const trash = el('button', { type: 'button', class: 'acc-button danger', id: 'friends-trash', hidden: true, on: { click: removeSelected } });
  /** @type {any|null} the friend chosen by a long press */
  let selected = null;

  // ---- Search ----
  const query = el('input', { type: 'search', class: 'trails-search', id: 'friends-search', placeholder: 'Find people by username', autocomplete: 'off',
    'aria-label': 'Find people by username', minlength: 2, maxlength: 64 });
  const found = el('ul', { class: 'person-list', id: 'people-found', 'aria-live': 'polite' });
  let searchTimer = 0;
  query.addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(search, 250); });
  const form = el('form', { class: 'friends-search', role: 'search', on: { submit: (e) => { e.preventDefault(); search(); } } }, query);

  async function search() {
    const text = query.value.trim();
    if (text.length < 2) { found.replaceChildren(); return; }
    try {
      const r = await searchPeople(text);
      found.replaceChildren(...(r.people.length ? r.people.map(foundItem)
        : [el('li', 'trails-note', `Nobody’s username starts with “${text}”. Check the spelling, or ask your friend for theirs.`)]));
    } catch (err) {
      found.replaceChildren(el('li', 'trails-note', err instanceof OfflineError ? 'You are offline: people can be found when Waymark can be reached.' : problemText(err)));
    }
  }

  function foundItem(/** @type {any} */ r) {
    const p = r.person;
    const label = { friend: 'Friends', requested: 'Request sent', blocked: 'Blocked', 'asks-you': 'Accept request', none: 'Add friend' }[r.relation];
    const add = el('button', { type: 'button', class: `acc-button ${r.relation === 'none' || r.relation === 'asks-you' ? 'primary' : ''}`,
      disabled: r.relation !== 'none' && r.relation !== 'asks-you', dataset: { person: p.id, action: 'add' },
      on: { click: async () => {
        add.disabled = true;
        try {
          const now = await befriend(p.id);
          add.textContent = now.relation === 'friend' ? 'Friends' : 'Request sent';
          toast(now.relation === 'friend' ? `You and ${p.name} are friends now.` : `Request sent to ${p.name}.`);
          load();
        } catch (err) { add.disabled = false; toast(problemText(err)); }
      } } }, label);
    return el('li', 'person-item', personLine(p), add);
  }

  // ---- The lists ----
  const incoming = el('ul', { class: 'person-list', id: 'friend-requests' });
  const friends = el('ul', { class: 'person-list', id: 'friends-list' });
  const outgoing = el('ul', { class: 'person-list', id: 'friends-sent' });
  const blocked = el('ul', { class: 'person-list', id: 'friends-blocked' });
  const incomingSection = el('section', { class: 'trail-section', hidden: true }, el('h3', null, 'Friend requests'), incoming);
  const outgoingSection = el('section', { class: 'trail-section', hidden: true }, el('h3', null, 'Requests you sent'), outgoing);
  const blockedSection = el('section', { class: 'trail-section', hidden: true }, el('h3', null, 'Blocked'), blocked);

  function render(/** @type {any} */ v, /** @type {number|null} */ savedAt) {
    status.textContent = savedAt ? `You are offline: this is your friends list as of ${seenAt(new Date(savedAt).toISOString())}.` : '';
    incomingSection.hidden = !v.incoming.length;
    incoming.replaceChildren(...v.incoming.map((d) => el('li', 'person-item', personLine(d.person, el('span', 'muted', `asked ${seenAt(d.since)}`)),
      el('div', 'person-actions',
        act('Accept', 'primary', 'accept', d.person, async () => { await befriend(d.person.id); toast(`You and ${d.person.name} are friends now.`); }),
        act('Decline', '', 'decline', d.person, async () => { await unfriend(d.person.id); })))));
    friends.replaceChildren(...(v.friends.length ? v.friends.map(friendItem)
      : [el('li', 'trails-note', 'No friends yet. Find people by their username above and send a request; once they accept, you can write to each other and share where you are.')]));
    outgoingSection.hidden = !v.outgoing.length;
    outgoing.replaceChildren(...v.outgoing.map((d) => el('li', 'person-item', personLine(d.person, el('span', 'muted', `sent ${seenAt(d.since)}`)),
      act('Cancel request', '', 'cancel', d.person, async () => { await unfriend(d.person.id); }))));
    blockedSection.hidden = !v.blocked.length;
    blocked.replaceChildren(...v.blocked.map((p) => el('li', 'person-item', personLine(p),
      act('Unblock', '', 'unblock', p, async () => { await setBlocked(p.id, false); }))));
  }

  /** A button that does something to a person, then reads the lists again. */
  function act(label, kind, action, person, fn) {
    const b = el('button', { type: 'button', class: `acc-button ${kind}`, dataset: { person: person.id, action }, on: { click: async () => {
      b.disabled = true;
      try { await fn(); load(); } catch (err) { b.disabled = false; toast(problemText(err)); }
    } } }, label);
    return b;
  }

  function friendItem(/** @type {any} */ d) {
    const p = d.person;
    const li = el('li', { class: 'person-item', dataset: { person: p.id }, tabindex: -1 },
      el('a', { class: 'person-link', href: `/trails/friends/${encodeURIComponent(p.id)}`, 'aria-label': `${p.name}: hikes` },
        personLine(p, el('span', 'muted', `friends since ${dated.format(new Date(d.since))}`))),
      el('div', 'person-actions',
        el('button', { type: 'button', class: 'acc-button primary', dataset: { action: 'message' }, on: { click: () => o.message(p.id) } }, 'Message'),
        el('button', { type: 'button', class: 'acc-button icon-button', 'aria-label': `More for ${p.name}`, dataset: { action: 'more' },
          on: { click: () => more(p) } }, '⋯')));
    // Long-press (the seed's gesture): the friend is chosen and a trash button appears in the header.
    let timer = 0, pressed = false;
    li.addEventListener('pointerdown', (e) => {
      if (/** @type {HTMLElement} */ (e.target).closest('button')) return;
      pressed = false;
      timer = setTimeout(() => { pressed = true; select(p, li); }, LONG_PRESS_MS);
    });
    // A long press chooses the friend; it does not also open their page.
    li.querySelector('.person-link')?.addEventListener('click', (e) => { if (pressed) { e.preventDefault(); pressed = false; } });
    for (const end of ['pointerup', 'pointerleave', 'pointercancel']) li.addEventListener(end, () => clearTimeout(timer));
    li.addEventListener('contextmenu', (e) => { e.preventDefault(); select(p, li); });
    return li;
  }

  function select(/** @type {any} */ p, /** @type {HTMLElement} */ li) {
    for (const x of friends.querySelectorAll('.selected')) x.classList.remove('selected');
    selected = p;
    li.classList.add('selected');
    trash.hidden = false;
    trash.textContent = `🗑 Remove ${p.name}`;
    trash.focus();
  }

  async function removeSelected() {
    if (!selected) return;
    const p = selected;
    if (!await confirm({ title: `Remove ${p.name}?`, message: 'You will no longer be friends: neither of you can write to the other or see where the other is. You can ask again later.',
      confirm: 'Remove', danger: true, name: 'remove-friend' })) return;
    try { await unfriend(p.id); toast(`${p.name} is no longer your friend.`); } catch (err) { toast(problemText(err)); }
    selected = null;
    trash.hidden = true;
    load();
  }

  async function more(/** @type {any} */ p) {
    const choice = await choose({ title: p.name, name: 'friend-options', actions: [
      { id: 'cancel', label: 'Cancel' }, { id: 'block', label: 'Block', kind: 'danger' }, { id: 'remove', label: 'Remove friend', kind: 'danger' }] });
    try {
      if (choice === 'remove') {
        selected = p;
        await removeSelected();
      } else if (choice === 'block') {
        if (!await confirm({ title: `Block ${p.name}?`, message: 'They will no longer find you or be able to ask to be your friend, and you will not see their messages. You can unblock them here.',
          confirm: 'Block', danger: true, name: 'block-person' })) return;
        await setBlocked(p.id, true);
        toast(`${p.name} is blocked.`);
        load();
      }
    } catch (err) { toast(problemText(err)); }
  }

  async function load() {
    try {
      const v = await getFriends();
      keepCopy('friends', v);
      render(v, null);
    } catch (err) {
      const copy = savedCopy('friends');
      if (err instanceof OfflineError && copy) render(copy.value, copy.savedAt);
      else status.textContent = err instanceof OfflineError ? 'You are offline and this browser has no copy of your friends list yet.' : problemText(err);
    }
  }

  // ---- Settings: sharing the position (TRL-9) ----
  const sw = el('input', { type: 'checkbox', role: 'switch', id: 'share-location', checked: o.sharing.sharing });
  const sharingNote = el('p', { class: 'trails-note', id: 'share-location-note', 'aria-live': 'polite' });
  const showSharing = () => {
    sw.checked = o.sharing.sharing;
    sw.setAttribute('aria-checked', String(sw.checked));
    const sent = o.sharing.sentAt;
    sharingNote.textContent = o.sharing.sharing
      ? `On. Friends who share too see you on the trails map; your position is sent every minute while Waymark is open${sent ? `, last ${seenAt(new Date(sent).toISOString())}` : ''}. Only the latest is kept.`
      : 'Off. Nobody sees where you are, and Waymark keeps no position of yours. Turn it on to see friends who share, and let them see you.';
  };
  const stopListening = o.sharing.onChange(() => { if (!sw.isConnected) { stopListening(); return; } showSharing(); });
  sw.addEventListener('change', async () => {
    const on = sw.checked;
    sw.disabled = true;
    try { await o.sharing.setSharing(on); toast(on ? 'Sharing your location with friends.' : 'Location sharing is off; your position was deleted.'); } catch (err) {
      toast(err instanceof OfflineError ? 'You are offline: sharing can be changed when Waymark can be reached.' : problemText(err));
    }
    sw.disabled = false;
    showSharing();
  });
  showSharing();
  const settings = el('section', { class: 'trail-section', id: 'friends-settings' }, el('h3', null, 'Settings'),
    el('label', { class: 'switch-row', for: 'share-location' }, el('span', null, 'Share my location with friends'), sw), sharingNote);

  load();
  return el('article', { class: 'trail-page', dataset: { screen: 'friends' } },
    el('div', 'trail-head', back, trash),
    el('div', 'trail-head', el('h2', 'trails-title', 'Friends'), el('a', { class: 'acc-button', href: '/trails/messages', id: 'friends-messages' }, 'Messages')),
    form, found, status, incomingSection,
    el('section', { class: 'trail-section' }, el('h3', null, 'Your friends'), friends),
    outgoingSection, blockedSection, settings);
}
