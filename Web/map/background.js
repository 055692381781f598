// The plain ground under everything. It is one axis-aligned fill on purpose: anything rotated
// here would be re-rasterised every frame of a rotation, for no information.

/** @param {() => Record<string, string>} palette */
export function backgroundLayer(palette) {
  return {
    id: 'background',
    zIndex: 0,
    /** @param {CanvasRenderingContext2D} ctx @param {import('./camera.js').Frame} f */
    draw(ctx, f) {
      ctx.fillStyle = palette().ground || '#f2efe9';
      ctx.fillRect(0, 0, f.width, f.height);
    },
  };
}
