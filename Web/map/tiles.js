// Raster tiles from a URL template. Tiles that fail (no network, blocked, 404) are retried
// later and never block drawing: the map keeps working on its plain background.

/**
 * @typedef {object} TileOptions
 * @property {string} urlTemplate with {z}, {x}, {y} and optionally {s}
 * @property {number} [maxZoom]
 * @property {string[]} [subdomains]
 * @property {() => boolean} [dark] whether to draw tiles darkened for the dark theme
 */

const RETRY_MS = 60_000;
const MAX_TILES = 320;
const MAX_LOADING = 12;

/** @param {TileOptions} options @param {() => void} onLoad */
export function tileLayer(options, onLoad) {
  const maxZoom = options.maxZoom ?? 19;
  const subdomains = options.subdomains ?? ['a', 'b', 'c'];
  /** @type {Map<string, {img: HTMLImageElement, state: string, retryAt: number, used: number, dark?: HTMLCanvasElement}>} */
  const cache = new Map();
  let loading = 0;
  let loaded = 0;
  let failed = 0;
  let frameNo = 0;
  let drawn = 0;

  function url(z, x, y) {
    return options.urlTemplate
      .replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y))
      .replace('{s}', subdomains[(x + y) % subdomains.length]);
  }

  function request(key, z, x, y, now) {
    let e = cache.get(key);
    if (e && (e.state !== 'error' || now < e.retryAt)) return e;
    if (loading >= MAX_LOADING) return e;
    const img = new Image();
    img.decoding = 'async';
    e = { img, state: 'loading', retryAt: 0, used: frameNo };
    cache.set(key, e);
    loading++;
    const entry = e;
    img.onload = () => { loading--; loaded++; entry.state = 'loaded'; onLoad(); };
    // A failure frees a loading slot too: redraw so waiting tiles get their turn.
    img.onerror = () => { loading--; failed++; entry.state = 'error'; entry.retryAt = performance.now() + RETRY_MS; onLoad(); };
    img.src = url(z, x, y);
    return e;
  }

  function imageFor(e, dark) {
    if (!dark) return e.img;
    if (!e.dark) {
      // Filtering once per tile keeps the per-frame cost of the dark theme at zero.
      const c = document.createElement('canvas');
      c.width = e.img.naturalWidth || 256;
      c.height = e.img.naturalHeight || 256;
      const g = c.getContext('2d');
      if (!g) return e.img;
      g.filter = 'invert(1) hue-rotate(180deg) brightness(0.82) contrast(0.9) saturate(0.6)';
      g.drawImage(e.img, 0, 0);
      e.dark = c;
    }
    return e.dark;
  }

  function evict() {
    if (cache.size <= MAX_TILES) return;
    const entries = [...cache.entries()].filter(([, e]) => e.state !== 'loading').sort((p, q) => p[1].used - q[1].used);
    for (const [key] of entries.slice(0, cache.size - MAX_TILES)) cache.delete(key);
  }

  /** @param {CanvasRenderingContext2D} ctx @param {import('./camera.js').Frame} f */
  function draw(ctx, f) {
    frameNo++;
    drawn = 0;
    const z = Math.max(0, Math.min(maxZoom, Math.round(f.zoom)));
    const n = 2 ** z;
    const x0 = Math.floor(f.bounds.minX * n);
    const x1 = Math.floor(f.bounds.maxX * n);
    const y0 = Math.max(0, Math.floor(f.bounds.minY * n));
    const y1 = Math.min(n - 1, Math.floor(f.bounds.maxY * n));
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > 400) return;
    const dark = options.dark ? options.dark() : false;
    const now = performance.now();
    const dpr = f.pixelRatio;
    // Nearest the centre first, so the middle of the screen fills in before the edges.
    const cxTile = f.mx * n;
    const cyTile = f.my * n;
    const tiles = [];
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) tiles.push([x, y]);
    tiles.sort((p, q) => Math.hypot(p[0] + 0.5 - cxTile, p[1] + 0.5 - cyTile) - Math.hypot(q[0] + 0.5 - cxTile, q[1] + 0.5 - cyTile));
    const k = 1 / (n * 256);
    ctx.save();
    ctx.imageSmoothingEnabled = true;
    for (const [x, y] of tiles) {
      const wx = ((x % n) + n) % n;
      const key = `${z}/${wx}/${y}`;
      const e = request(key, z, wx, y, now);
      const o = f.toScreen(x / n, y / n);
      ctx.setTransform(dpr * f.a * k, -dpr * f.c * k, dpr * f.c * k, dpr * f.a * k, dpr * o.x, dpr * o.y);
      if (e && e.state === 'loaded') {
        e.used = frameNo;
        ctx.drawImage(imageFor(e, dark), 0, 0, 256.6, 256.6);
        drawn++;
        continue;
      }
      // Stand in with a loaded ancestor, scaled up, until this tile arrives.
      for (let d = 1; d <= 4 && z - d >= 0; d++) {
        const pz = z - d;
        const px = wx >> d;
        const py = y >> d;
        const p = cache.get(`${pz}/${px}/${py}`);
        if (p && p.state === 'loaded') {
          p.used = frameNo;
          const size = 256 / 2 ** d;
          const sx = (wx - (px << d)) * size;
          const sy = (y - (py << d)) * size;
          ctx.drawImage(imageFor(p, dark), sx, sy, size, size, 0, 0, 256.6, 256.6);
          drawn++;
          break;
        }
      }
    }
    ctx.restore();
    evict();
  }

  return {
    id: 'tiles',
    zIndex: 10,
    draw,
    /** Drops darkened copies after a theme change. */
    resetTheme() { for (const e of cache.values()) e.dark = undefined; },
    stats() { return { loaded, failed, loading, cached: cache.size, drawn }; },
  };
}
