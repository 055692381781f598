// Trails as the server offers them (TRL-1, TRL-2, TRL-7): the only module of the area that names
// API paths. The catalogue is public and read through the shell's saved copies, so a trail once
// opened reads offline; favourites go with the person's session.

import { getJSON, newKey } from '../shell/api.js';
import { authed, signedIn } from '../accounts/session.js';
import { sendOrQueue } from '../accounts/outbox.js';

const id = (s) => encodeURIComponent(s);

/**
 * @param {{near?: {lat: number, lon: number}, view?: {south: number, west: number, north: number, east: number},
 *          q?: string, difficulty?: string[], feature?: string[], lines?: boolean, limit?: number, offset?: number}} o
 */
export function listTrails(o = {}) {
  const p = new URLSearchParams();
  if (o.near) { p.set('latitude', o.near.lat.toFixed(5)); p.set('longitude', o.near.lon.toFixed(5)); }
  if (o.view) for (const k of ['south', 'west', 'north', 'east']) p.set(k, o.view[k].toFixed(5));
  if (o.q) p.set('q', o.q);
  if (o.lines) p.set('lines', 'true');
  if (o.limit) p.set('limit', String(o.limit));
  if (o.offset) p.set('offset', String(o.offset));
  // Lists are comma-separated with the commas left bare: an escaped comma would be part of a value.
  const lists = [['difficulty', o.difficulty], ['feature', o.feature]].filter(([, v]) => v?.length)
    .map(([k, v]) => `&${k}=${v.map(encodeURIComponent).join(',')}`).join('');
  return getJSON(`/v1/trails?${p}${lists}`);
}

/** @param {string} trailId */
export const getTrail = (trailId) => getJSON(`/v1/trails/${id(trailId)}`);
/** @param {string} trailId */
export const gpxURL = (trailId) => `/v1/trails/${id(trailId)}/gpx`;

export const listFavourites = () => authed('GET', '/v1/me/trail-favourites');
/** @param {string} trailId @param {boolean} starred */
export const setFavourite = (trailId, starred) => authed(starred ? 'PUT' : 'DELETE', `/v1/me/trail-favourites/${id(trailId)}`);

/** Today and three days at the trailhead (TRL-3). @param {string} trailId */
export const getWeather = (trailId) => getJSON(`/v1/trails/${id(trailId)}/weather`);

// ---- Comments (TRL-4) ----

/** A page of comments; with a session, the person's own comes back as `mine`. @param {string} trailId */
export function listComments(trailId, offset = 0) {
  const path = `/v1/trails/${id(trailId)}/comments?limit=6&offset=${offset}`;
  return signedIn() ? authed('GET', path) : getJSON(path).then((r) => r.data);
}
/**
 * Writes or edits the person's comment; offline it waits in the outbox, a newer one replacing
 * an older one still waiting (TRL-11). @param {{id: string, name: string}} trail @param {{stars: number, text: string}} input
 */
export const putComment = (trail, input) => sendOrQueue({
  kind: 'trail-comment', label: `Comment on ${trail.name} · ${'★'.repeat(input.stars)}`, method: 'PUT',
  path: `/v1/trails/${id(trail.id)}/comments/me`, json: input, ref: { trailId: trail.id, ...input }, supersedes: true,
});
/** @param {{id: string, name: string}} trail */
export const deleteComment = (trail) => sendOrQueue({
  kind: 'trail-comment-delete', label: `Delete comment on ${trail.name}`, method: 'DELETE',
  path: `/v1/trails/${id(trail.id)}/comments/me`, ref: { trailId: trail.id }, supersedes: true,
});
/** @param {string} commentId @param {'up'|'down'|'none'} vote */
export const voteComment = (commentId, vote) => authed('PUT', `/v1/trail-comments/${id(commentId)}/vote`, { json: { vote } });
/** @param {string} commentId @param {string} reason */
export const reportComment = (commentId, reason) => authed('POST', `/v1/trail-comments/${id(commentId)}/reports`, { json: { reason } });

// ---- The community forum (TRL-5) ----

/** A page of posts, newest first; with a session each says whether it is the person's. @param {string} trailId */
export function listForum(trailId, offset = 0) {
  const path = `/v1/trails/${id(trailId)}/forum?limit=20&offset=${offset}`;
  return signedIn() ? authed('GET', path) : getJSON(path).then((r) => r.data);
}
/**
 * Posts with an id made now, so that a post queued offline is stored once however often it is
 * sent (TRL-11). @param {{id: string, name: string}} trail @param {string} text @param {{latitude: number, longitude: number}} pin
 */
export function putForumPost(trail, text, pin) {
  const postId = newKey();
  return sendOrQueue({
    kind: 'trail-post', label: `Post on ${trail.name}: “${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`, method: 'PUT',
    path: `/v1/trails/${id(trail.id)}/forum/${postId}`, json: { text, pin }, ref: { trailId: trail.id, postId, text, pin }, key: postId,
  });
}
/** @param {string} trailId @param {string} postId */
export const deleteForumPost = (trailId, postId) => authed('DELETE', `/v1/trails/${id(trailId)}/forum/${id(postId)}`);
/** @param {string} postId @param {string} reason */
export const reportForumPost = (postId, reason) => authed('POST', `/v1/trail-forum-posts/${id(postId)}/reports`, { json: { reason } });

// ---- Operators: moderation (TRL-12) and pictures (TRL-1) ----

export const reportedComments = () => authed('GET', '/v1/operator/trail-comments');
export const reportedPosts = () => authed('GET', '/v1/operator/trail-forum-posts');
/** @param {'comment'|'post'} kind @param {string} itemId @param {'hide'|'restore'|'dismiss'} action */
export const moderate = (kind, itemId, action) => authed('POST',
  `/v1/operator/${kind === 'comment' ? 'trail-comments' : 'trail-forum-posts'}/${id(itemId)}/moderation`, { json: { action } });
/** A PNG, JPEG or WebP file made the trailhead's picture. @param {string} trailId @param {Blob} file */
export async function replaceTrailPicture(trailId, file) {
  const uploaded = await authed('POST', '/v1/trail-pictures', { body: file, contentType: file.type });
  return authed('PATCH', `/v1/trails/${id(trailId)}`, { json: { pictureId: uploaded.pictureId } });
}

// ---- Hikes (TRL-6) ----

/** @param {'date'|'trailName'|'difficulty'|'area'} sort */
export const listHikes = (sort = 'date', limit = 10, offset = 0) => authed('GET', `/v1/me/hikes?sort=${sort}&limit=${limit}&offset=${offset}`);
/** @param {string} hikeId */
export const getHike = (hikeId) => authed('GET', `/v1/me/hikes/${id(hikeId)}`);
/** @param {string} hikeId */
export const deleteHike = (hikeId) => authed('DELETE', `/v1/me/hikes/${id(hikeId)}`);
/** The GPX file as a blob (it needs the session, so it cannot be a plain link). @param {string} hikeId */
export const hikeGPX = (hikeId) => authed('GET', `/v1/me/hikes/${id(hikeId)}/gpx`, { accept: 'application/gpx+xml', raw: true });
export const getHikerBody = () => authed('GET', '/v1/me/hiker-body');
/** @param {{heightCentimetres?: number, weightKilograms?: number, birthYear?: number}} body */
export const putHikerBody = (body) => authed('PUT', '/v1/me/hiker-body', { json: body });
/**
 * Saves a hike under the id made when it started: offline it waits in the outbox and is sent
 * once (TRL-11). @param {{id: string, trailId: string, trailName: string, startedAt: number, endedAt: number, fixes: any[]}} h
 */
export const saveHike = (h) => sendOrQueue({
  kind: 'hike', label: `Hike on ${h.trailName}`, method: 'PUT', path: `/v1/me/hikes/${id(h.id)}`, key: h.id,
  json: {
    trailId: h.trailId, startedAt: new Date(h.startedAt).toISOString(), endedAt: new Date(h.endedAt).toISOString(),
    fixes: h.fixes.map((f) => [Math.round(f.t - h.startedAt) / 1000, f.lat, f.lon, f.acc, ...(f.ele != null ? [f.ele] : [])]),
  },
  ref: { hikeId: h.id, trailId: h.trailId },
});

// ---- Scavenger hunts (TRL-10) ----

/** @param {string} trailId */
export const getHunt = (trailId) => authed('GET', `/v1/me/scavenger-hunts/${id(trailId)}`);
/** Ticks or unticks a focal point; offline it waits in the outbox (TRL-11). @param {{id: string, name: string}} trail @param {{id: string, name: string}} point @param {boolean} found */
export const markFind = (trail, point, found) => sendOrQueue({
  kind: 'scavenger', label: `${found ? 'Found' : 'Not found'}: ${point.name} on ${trail.name}`, method: 'PUT',
  path: `/v1/me/scavenger-hunts/${id(trail.id)}/${id(point.id)}`, json: { found }, ref: { trailId: trail.id, pointId: point.id, found }, supersedes: true,
});

// ---- Friends, messages and location sharing (TRL-8, TRL-9) ----

/** @param {string} text the start of a username */
export const searchPeople = (text) => authed('GET', `/v1/people?username=${encodeURIComponent(text)}&limit=20`);
export const getFriends = () => authed('GET', '/v1/me/friends');
/** Asks, or accepts their request. @param {string} userId */
export const befriend = (userId) => authed('PUT', `/v1/me/friends/${id(userId)}`);
/** Removes a friend, withdraws a request or declines one. @param {string} userId */
export const unfriend = (userId) => authed('DELETE', `/v1/me/friends/${id(userId)}`);
/** @param {string} userId @param {boolean} blocked */
export const setBlocked = (userId, blocked) => authed(blocked ? 'PUT' : 'DELETE', `/v1/me/blocks/${id(userId)}`);

export const listThreads = () => authed('GET', '/v1/me/threads');
/** @param {string[]} memberIds @param {string} [title] */
export const createThread = (memberIds, title) => authed('POST', '/v1/me/threads', { json: title ? { memberIds, title } : { memberIds } });
/** @param {string} threadId */
export const getThread = (threadId) => authed('GET', `/v1/me/threads/${id(threadId)}`);
/** @param {string} threadId @param {string} userId */
export const addMember = (threadId, userId) => authed('PUT', `/v1/me/threads/${id(threadId)}/members/${id(userId)}`);
/** @param {string} threadId @param {string} userId (the person's own id: leave) */
export const removeMember = (threadId, userId) => authed('DELETE', `/v1/me/threads/${id(threadId)}/members/${id(userId)}`);
/** Newest first; `before` a message's sequence. @param {string} threadId @param {number} [before] */
export const listMessages = (threadId, before) => authed('GET', `/v1/me/threads/${id(threadId)}/messages?limit=30${before ? `&before=${before}` : ''}`);
/**
 * Sends (or edits) a message under an id made when it was written: offline it waits in the
 * outbox and is sent once (TRL-11). @param {string} threadId @param {string} messageId @param {string} text
 */
export const putMessage = (threadId, messageId, text) => sendOrQueue({
  kind: 'message', label: `Message: “${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`, method: 'PUT',
  path: `/v1/me/threads/${id(threadId)}/messages/${id(messageId)}`, json: { text }, ref: { threadId, messageId, text }, supersedes: true,
});
/** @param {string} threadId @param {string} messageId */
export const deleteMessage = (threadId, messageId) => sendOrQueue({
  kind: 'message-delete', label: 'Delete a message', method: 'DELETE',
  path: `/v1/me/threads/${id(threadId)}/messages/${id(messageId)}`, ref: { threadId, messageId }, supersedes: true,
});
/** @param {string} threadId */
export const markThreadRead = (threadId) => authed('PUT', `/v1/me/threads/${id(threadId)}/read`);
/** The thread's live stream (read with the session's token). @param {string} threadId */
export const threadLiveURL = (threadId) => `/v1/me/threads/${id(threadId)}/live`;

export const getLocationSharing = () => authed('GET', '/v1/me/location-sharing');
/** @param {boolean} sharing */
export const setLocationSharing = (sharing) => authed('PUT', '/v1/me/location-sharing', { json: { sharing } });
/** @param {{latitude: number, longitude: number, accuracy: number}} p */
export const reportPosition = (p) => authed('PUT', '/v1/me/location-sharing/position', { json: p });
export const friendPositions = () => authed('GET', '/v1/me/friend-positions');
/** A friend's hikes, newest first. @param {string} userId */
export const friendHikes = (userId, limit = 10, offset = 0) => authed('GET', `/v1/people/${id(userId)}/hikes?limit=${limit}&offset=${offset}`);
/** One of a friend's hikes with its path. @param {string} userId @param {string} hikeId */
export const friendHike = (userId, hikeId) => authed('GET', `/v1/people/${id(userId)}/hikes/${id(hikeId)}`);
