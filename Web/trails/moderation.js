// The operators' moderation queue (TRL-12), in the person's space for operators only: reported
// or hidden trail comments and forum posts, the most reported first, each with its trail, its
// author, what it says, why it was reported, and Hide, Restore or Dismiss.

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { problemText } from '../shell/api.js';
import { reportedComments, reportedPosts, moderate } from './api.js';
import { REPORT_REASONS, placeDates } from './format.js';

const REASON = Object.fromEntries(REPORT_REASONS);

/** "Spam or advertising (2), Wrong about this trail": each reason once, with how often. @param {string[]} reasons */
function reasonsText(reasons) {
  const counts = new Map();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${REASON[r] ?? 'Something else'}${n > 1 ? ` (${n})` : ''}`).join(', ');
}

/** @returns {{name: string, title: string, leave: () => void, render: () => HTMLElement[]}} */
export function moderationView() {
  let alive = true;
  const status = el('p', { class: 'muted small', role: 'status' }, 'Loading…');
  const list = el('ul', { class: 'moderation-list', id: 'moderation-list' });
  /** Dates as the trails' region tells them. */
  let when = placeDates(undefined, { dateStyle: 'medium', timeStyle: 'short' });

  async function load() {
    try {
      const [c, p] = await Promise.all([reportedComments(), reportedPosts()]);
      if (!alive) return;
      when = placeDates(c.timeZone, { dateStyle: 'medium', timeStyle: 'short' });
      const items = [
        ...c.comments.map((x) => ({ kind: /** @type {'comment'} */ ('comment'), id: x.comment.id, trail: x.trailName, author: x.comment.authorName,
          text: x.comment.text || `${x.comment.stars} stars, no text`, at: x.comment.updatedAt, reports: x.reports, reasons: x.reasons, hidden: x.hidden })),
        ...p.posts.map((x) => ({ kind: /** @type {'post'} */ ('post'), id: x.post.id, trail: x.trailName, author: x.post.authorName,
          text: x.post.text, at: x.post.createdAt, reports: x.reports, reasons: x.reasons, hidden: x.hidden })),
      ].sort((a, b) => b.reports - a.reports || b.at.localeCompare(a.at));
      list.replaceChildren(...items.map(item));
      status.textContent = items.length ? `${items.length} to look at` : 'Nothing is reported. Comments and forum posts that hikers report appear here.';
    } catch (err) {
      if (alive) status.textContent = problemText(err);
    }
  }

  function item(x) {
    const act = async (/** @type {'hide'|'restore'|'dismiss'} */ action) => {
      try {
        await moderate(x.kind, x.id, action);
        toast(action === 'hide' ? 'Hidden from hikers.' : action === 'restore' ? 'Shown again; its reports are cleared.' : 'Reports dismissed; it stays shown.');
        await load();
      } catch (err) { toast(problemText(err)); }
    };
    const buttons = x.hidden
      ? [el('button', { type: 'button', class: 'acc-button', dataset: { action: 'restore' }, on: { click: () => act('restore') } }, 'Restore')]
      : [el('button', { type: 'button', class: 'acc-button danger', dataset: { action: 'hide' }, on: { click: () => act('hide') } }, 'Hide'),
        el('button', { type: 'button', class: 'acc-button', dataset: { action: 'dismiss' }, on: { click: () => act('dismiss') } }, 'Dismiss')];
    return el('li', { class: `moderation-item${x.hidden ? ' hidden-item' : ''}`, dataset: { kind: x.kind, item: x.id } },
      el('p', 'muted small', `${x.kind === 'comment' ? 'Comment' : 'Forum post'} on ${x.trail} · ${x.author} · ${when.format(new Date(x.at))}`),
      el('p', 'moderation-text', x.text),
      el('p', 'small', x.hidden ? 'Hidden from hikers.' : `Reported ${x.reports === 1 ? 'once' : `${x.reports} times`}: ${reasonsText(x.reasons)}`),
      el('p', 'moderation-actions', ...buttons));
  }

  return {
    name: 'moderation',
    title: 'Trail moderation',
    leave() { alive = false; },
    render() { load(); return [status, list]; },
  };
}
