// The addresses this gateway listens on right now. Listeners start after the plugins are set
// up (and a port 0 is only known once bound), so plugins ask at the moment they need one:
// collab hands them to the workers it starts.
import type { ListeningAddress } from '../contract/addresses.js';


export class ListeningAddresses {
  readonly #addresses = new Set<ListeningAddress>();

  /** Records a bound listener; returns the function that forgets it once it closes. */
  add(address: ListeningAddress): () => void {
    this.#addresses.add(address);
    return () => this.#addresses.delete(address);
  }

  /** Every bound listener, in the order they started. */
  list(): ListeningAddress[] {
    return [...this.#addresses];
  }
}
