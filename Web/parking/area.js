// Parking as an area of the shell: its layers on the shared map, and its paths — "/" the
// campus map, "/lots/<id>" the map at that lot with its card open.

import { startParking } from './index.js';
import { startCar } from '../car/car.js';
import { record, leave } from '../shell/router.js';
import { toast } from '../shell/toast.js';

const LOT = /^\/lots\/([^/]+)\/?$/;
export const lotPath = (id) => `/lots/${encodeURIComponent(id)}`;

/**
 * @param {{map: any, services: Record<string, any>, setTiles: (config: any) => void}} shell
 */
export function start(shell) {
  const { map } = shell;
  const car = startCar({ map });
  shell.services.car = car;
  /** @type {any} */
  let parking = null;
  let applying = false;

  /** The card opened or closed by the person: the URL follows (a lot to lot switch replaces). */
  function onCard(lotId) {
    if (applying) return;
    const onLot = LOT.test(location.pathname);
    if (lotId) record(lotPath(lotId), { layer: 'lot', replace: onLot });
    else if (onLot) leave('lot', '/');
  }

  return {
    /** Loads the campus and draws it; again after a failure (the splash's Try again). */
    async ready() {
      if (parking) return;
      parking = await startParking({
        map,
        car,
        accounts: () => shell.services.accounts,
        setTiles: shell.setTiles,
        onCard,
      });
      shell.services.parking = parking;
    },
    /** @param {string} path */
    show(path) {
      if (!parking) return;
      const m = LOT.exec(path);
      const id = m ? decodeURIComponent(m[1]) : null;
      if (parking.card.lotId === id) return;
      applying = true;
      try {
        if (!id) parking.card.close();
        else if (!parking.flyToLot(id, 0)) {
          toast('That lot is not on this campus.');
          record('/', { replace: true });
          parking.card.close();
        }
      } finally {
        applying = false;
      }
    },
    /** Another area is shown: an area that opens over the map keeps the card under it. */
    hide(next) {
      if (!parking || next?.overlay) return;
      applying = true;
      try { parking.card.close(); } finally { applying = false; }
    },
  };
}
