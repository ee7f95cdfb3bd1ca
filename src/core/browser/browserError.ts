/** A browser failure the model can act on (no browser found, a page that would not load); its message says why. */
export class BrowserError extends Error {
  override readonly name = "BrowserError";
}
