// Favourite trails read offline before they are opened (TRL-11): once per visit, each starred
// trail's page, forecast and pictures are fetched in the background, one trail at a time, so
// the saved copies (shell/api.js, sw.js) hold them when the hiker reaches the trailhead
// without a signal.

import { getTrail, getWeather } from './api.js';

const done = new Set();
let queue = Promise.resolve();

/** A picture fetched as the page would fetch it, so the service worker keeps it. @param {string} url */
function warm(url) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = img.onerror = () => resolve(undefined);
    img.src = url;
  });
}

/** @param {string[]} trailIds */
export function keepForOffline(trailIds) {
  for (const id of trailIds) {
    if (done.has(id)) continue;
    done.add(id);
    queue = queue.then(async () => {
      try {
        const { data, fromCache } = await getTrail(id);
        if (fromCache) { done.delete(id); return; }
        await getWeather(id).catch(() => undefined);
        const pictures = [data.summary.pictureURL, ...data.guidelines.map((g) => g.pictureURL), ...data.points.map((p) => p.pictureURL)].filter(Boolean);
        for (const url of new Set(pictures)) await warm(url);
      } catch { done.delete(id); /* offline or gone: tried again on the next visit */ }
    });
  }
  return queue;
}
