// The Comments section of a trail's page (TRL-4): the person's own comment on top in another
// colour, with Edit and Delete; Leave Comment with 1–5 stars and text; the others six at a time,
// the highest voted first, each with up and down votes and Report; "No comments yet" when empty.
// A comment written or deleted offline waits in the outbox and is shown as waiting (TRL-11).

import { el } from '../shell/dom.js';
import { toast } from '../shell/toast.js';
import { choose, confirm } from '../shell/dialog.js';
import { OfflineError, problemText } from '../shell/api.js';
import { signedIn } from '../accounts/session.js';
import { writes, onChange, onSent } from '../accounts/outbox.js';
import { REPORT_REASONS, placeDates } from './format.js';
import { STARS_KEY } from './hikes.js';
import { listComments, putComment, deleteComment, voteComment, reportComment } from './api.js';


const starsText = (n) => `${'★'.repeat(n)}${'☆'.repeat(5 - n)}`;

/** The comment section on screen, redrawn when the outbox changes or sends its comment. */
let current = /** @type {{trailId: string, reload: () => void, redraw: () => void}|null} */ (null);
onChange(() => current?.redraw());
onSent((w) => { if (w.ref?.trailId && w.ref.trailId === current?.trailId && w.kind.startsWith('trail-comment')) current.reload(); });

/** @param {{id: string, name: string}} trail @param {string} [timeZone] the trail's region, for dates */
export function commentsSection(trail, timeZone) {
  const trailId = trail.id;
  const day = placeDates(timeZone, { dateStyle: 'medium' });
  const head = el('h3', null, 'Comments');
  const summary = el('p', 'trails-note');
  const mine = el('div', { id: 'trail-comment-mine' });
  const list = el('ul', { class: 'trail-comments', id: 'trail-comments' });
  const more = el('button', { type: 'button', class: 'trails-more', id: 'trail-comments-more', hidden: true, on: { click: () => load(shown) } }, 'Read more');
  const section = el('section', { class: 'trail-section', id: 'trail-comments-section' }, head, summary, mine, list, more);
  let shown = 0;
  let lastMine = /** @type {any} */ (null);
  /** The person's comment waiting in the outbox for this trail, if any. */
  const waiting = () => writes().find((w) => w.kind.startsWith('trail-comment') && w.ref?.trailId === trailId) ?? null;
  current = { trailId, reload: () => load(0), redraw: () => { if (section.isConnected) renderMine(lastMine); } };

  async function load(offset = 0) {
    let page;
    try { page = await listComments(trailId, offset); } catch (err) {
      summary.textContent = err instanceof OfflineError ? 'Comments need a connection to be read.' : 'Comments could not be loaded. Try again in a moment.';
      renderMine(lastMine);
      return;
    }
    if (offset === 0) { list.replaceChildren(); shown = 0; renderMine(page.mine ?? null); }
    list.append(...page.comments.map(other));
    shown += page.comments.length;
    const others = page.total - (page.mine ? 1 : 0);
    more.hidden = shown >= others;
    summary.textContent = page.total
      ? `${page.total} ${page.total === 1 ? 'comment' : 'comments'}${page.averageStars ? `, ${page.averageStars.toFixed(1)} stars on average` : ''}`
      : 'No comments yet. Be the first to say how it went.';
  }

  function renderMine(c) {
    lastMine = c;
    const queued = waiting();
    if (queued && signedIn()) {
      mine.replaceChildren(el('p', { class: `trail-waiting ${queued.state}`, id: 'trail-comment-waiting', role: 'status' },
        queued.state === 'failed' ? `Your comment was not sent: ${queued.error ?? 'the server refused it'}. See Waiting to Send in your account.`
          : queued.kind === 'trail-comment-delete' ? 'Your comment will be deleted when Waymark can be reached.'
            : `Waiting to send: your ${starsText(queued.ref.stars)} comment is sent when Waymark can be reached.`));
      return;
    }
    if (!signedIn()) {
      mine.replaceChildren(el('p', 'trails-note', el('a', { href: '/me' }, 'Sign in'), ' to leave a comment and vote on others.'));
      return;
    }
    if (!c) {
      mine.replaceChildren(el('button', { type: 'button', class: 'acc-button primary', id: 'trail-comment-leave', on: { click: () => form(null) } }, 'Leave a comment'));
      return;
    }
    mine.replaceChildren(el('article', { class: 'trail-comment mine', dataset: { comment: c.id } },
      el('p', 'trail-comment-head', el('strong', null, 'Your comment'), ' ', el('span', { class: 'trail-comment-stars', 'aria-label': `${c.stars} of 5 stars` }, starsText(c.stars)),
        ' ', el('span', 'trails-note', day.format(new Date(c.updatedAt)))),
      c.text ? el('p', 'trail-comment-text', c.text) : null,
      el('p', 'trail-comment-actions',
        el('button', { type: 'button', class: 'link-button', on: { click: () => form(c) } }, 'Edit'),
        el('button', { type: 'button', class: 'link-button', on: { click: () => remove() } }, 'Delete'))));
  }

  /** Leave Comment: the stars (filled up to the one chosen), the text, Save and Cancel. */
  function form(c) {
    let stars = c?.stars ?? 0;
    const starButtons = [1, 2, 3, 4, 5].map((n) => el('button', {
      type: 'button', class: 'trail-star-pick', 'aria-label': `${n} star${n > 1 ? 's' : ''}`, dataset: { stars: String(n) },
      on: { click: () => { stars = n; paint(); } },
    }, '☆'));
    const paint = () => starButtons.forEach((b, i) => { b.textContent = i < stars ? '★' : '☆'; b.setAttribute('aria-pressed', String(i + 1 === stars)); });
    paint();
    const text = el('textarea', { id: 'trail-comment-text', rows: 4, maxLength: 2000, 'aria-label': 'Your comment', placeholder: 'How was it? Conditions, shade, what to bring…' });
    text.value = c?.text ?? '';
    const error = el('p', { class: 'form-error', role: 'alert', hidden: true });
    const save = el('button', { type: 'button', class: 'acc-button primary', id: 'trail-comment-save', on: { click: async () => {
      if (!stars) { error.textContent = 'Choose 1 to 5 stars.'; error.hidden = false; return; }
      save.disabled = true;
      try {
        const r = await putComment(trail, { stars, text: text.value });
        if (r.sent) { await load(0); toast('Your comment is saved.'); } else { renderMine(lastMine); toast('You are offline: your comment is sent when Waymark can be reached.'); }
      } catch (err) {
        error.textContent = problemText(err);
        error.hidden = false;
      }
      save.disabled = false;
    } } }, 'Save');
    mine.replaceChildren(el('div', { class: 'trail-comment-form', role: 'group', 'aria-label': 'Leave a comment' },
      el('div', { class: 'trail-star-picks', role: 'group', 'aria-label': 'Stars' }, starButtons), text, error,
      el('p', 'trail-comment-actions', save, el('button', { type: 'button', class: 'acc-button', on: { click: () => load(0) } }, 'Cancel'))));
    text.focus();
  }

  async function remove() {
    if (!(await confirm({ title: 'Delete your comment?', message: 'Its stars and votes go with it.', confirm: 'Delete', danger: true }))) return;
    try {
      const r = await deleteComment(trail);
      if (r.sent) { await load(0); toast('Your comment is deleted.'); } else { renderMine(lastMine); toast('You are offline: your comment is deleted when Waymark can be reached.'); }
    } catch (err) { toast(problemText(err)); }
  }

  function other(c) {
    const score = el('span', { class: 'trail-comment-score', 'aria-label': `Score ${c.score}` }, String(c.score));
    const up = el('button', { type: 'button', class: 'trail-vote', 'aria-label': 'Helpful', 'aria-pressed': String(c.myVote === 'up'), dataset: { vote: 'up' } }, '▲');
    const down = el('button', { type: 'button', class: 'trail-vote', 'aria-label': 'Not helpful', 'aria-pressed': String(c.myVote === 'down'), dataset: { vote: 'down' } }, '▼');
    async function vote(which) {
      if (!signedIn()) { toast('Sign in to vote on comments.'); return; }
      const next = c.myVote === which ? 'none' : which;
      try {
        const r = await voteComment(c.id, next);
        c.myVote = r.myVote; c.score = r.score;
        score.textContent = String(r.score);
        score.setAttribute('aria-label', `Score ${r.score}`);
        up.setAttribute('aria-pressed', String(r.myVote === 'up'));
        down.setAttribute('aria-pressed', String(r.myVote === 'down'));
      } catch (err) { toast(err instanceof OfflineError ? 'Voting needs a connection.' : problemText(err)); }
    }
    up.addEventListener('click', () => vote('up'));
    down.addEventListener('click', () => vote('down'));
    const report = el('button', { type: 'button', class: 'link-button trail-report', on: { click: async () => {
      if (!signedIn()) { toast('Sign in to report a comment.'); return; }
      const reason = await choose({ title: 'Report this comment', message: 'What is wrong with it? The trail’s operators will look at it.', name: 'report-comment',
        actions: [...REPORT_REASONS.map(([id, label]) => ({ id, label })), { id: 'cancel', label: 'Cancel' }] });
      if (!reason || reason === 'cancel') return;
      try { await reportComment(c.id, reason); toast('Thank you: the operators will look at it.'); } catch (err) { toast(problemText(err)); }
    } } }, 'Report');
    return el('li', { class: 'trail-comment', dataset: { comment: c.id } },
      el('p', 'trail-comment-head', el('strong', null, c.authorName), ' ', el('span', { class: 'trail-comment-stars', 'aria-label': `${c.stars} of 5 stars` }, starsText(c.stars)),
        ' ', el('span', 'trails-note', day.format(new Date(c.updatedAt)))),
      c.text ? el('p', 'trail-comment-text', c.text) : null,
      el('p', 'trail-comment-actions', up, score, down, report));
  }

  // Stars given at the end of a hike open Leave Comment with them filled in (Trailz 3.2.3.4.1).
  load(0).then(() => {
    let chosen = null;
    try { chosen = JSON.parse(sessionStorage.getItem(STARS_KEY) ?? 'null'); } catch { /* none */ }
    if (chosen?.trailId !== trailId || !signedIn() || waiting()) return;
    sessionStorage.removeItem(STARS_KEY);
    form({ ...(lastMine ?? { text: '' }), stars: chosen.stars });
    section.scrollIntoView({ block: 'start' });
  });
  return section;
}
