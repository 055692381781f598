// The map's Default / Satellite switch (TRL-2). The server says which imagery it may use; with
// none configured the switch stays hidden. The choice is kept in this browser.

const KEY = 'waymark.map.style';

/**
 * @param {HTMLButtonElement} button
 * @param {(source: {urlTemplate: string, maxZoom: number, attribution: string}|null, config: any) => void} apply
 */
export function startBaseMap(button, apply) {
  let config = /** @type {any} */ (null);
  const satelliteChosen = () => localStorage.getItem(KEY) === 'satellite';

  function draw() {
    const offered = !!config?.satelliteTileURLTemplate;
    button.hidden = !offered;
    const satellite = offered && satelliteChosen();
    button.setAttribute('aria-pressed', String(satellite));
    button.title = satellite ? 'Show the default map' : 'Show satellite imagery';
    button.setAttribute('aria-label', satellite ? 'Default map' : 'Satellite');
    // Today's map images are spent (PRK-20): the plain map, saying why, asks for none.
    if (config?.mapImagesPaused) apply(null, config);
    else if (satellite) apply({ urlTemplate: config.satelliteTileURLTemplate, maxZoom: config.satelliteTileMaxZoom ?? 19, attribution: config.satelliteTileAttribution ?? '' }, config);
    else apply(config?.tileURLTemplate ? { urlTemplate: config.tileURLTemplate, maxZoom: config.tileMaxZoom ?? 19, attribution: config.tileAttribution ?? '' } : null, config);
  }

  button.addEventListener('click', () => {
    localStorage.setItem(KEY, satelliteChosen() ? 'default' : 'satellite');
    draw();
  });

  return {
    /** @param {any} c the server's client configuration */
    setConfig(c) { config = c; draw(); },
    style: () => (config?.satelliteTileURLTemplate && satelliteChosen() ? 'satellite' : 'default'),
  };
}
