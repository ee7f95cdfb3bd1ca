/**
 * What the tests read from rendered elements. The root tsconfig checks test/ for Node without the
 * DOM library (so the core cannot lean on browser globals), where HTMLElement is an empty
 * interface; reading through `el()` type-checks there and under test/unit/webview/tsconfig.json.
 */
export interface El {
  readonly textContent: string | null;
  readonly className: string;
  readonly dataset: Record<string, string | undefined>;
  readonly ownerDocument: { readonly activeElement: unknown };
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El> & { readonly length: number };
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
}

export function el(node: unknown): El {
  return node as El;
}

/** The texts of the elements under `root` that match `selector`. */
export function texts(root: unknown, selector: string): (string | null)[] {
  return [...el(root).querySelectorAll(selector)].map((e) => e.textContent);
}

/** happy-dom's own clipboard: what a Copy button wrote, read back the way a page would. */
export function clipboardText(): Promise<string> {
  return (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
}
