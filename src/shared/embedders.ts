/**
 * The embedders the codebase index can use (src/core/codeIndex/embedder.ts makes them), for the
 * settings page's form and the CLI's flag: here so the webview can list them without the core.
 */
export const EMBEDDER_KINDS = ["openai", "openai-compatible", "mistral", "ollama", "gemini", "bedrock"] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/** What the form suggests for each: a model, and whether the kind takes a base URL, a key, a region. */
export const EMBEDDER_HINTS: Record<EmbedderKind, { model: string; baseUrl?: string; key: "required" | "optional" | "none"; region?: boolean }> = {
  openai: { model: "text-embedding-3-small", key: "required" },
  "openai-compatible": { model: "text-embedding-3-small", baseUrl: "http://localhost:1234/v1", key: "optional" },
  mistral: { model: "codestral-embed", key: "required" },
  ollama: { model: "nomic-embed-text", baseUrl: "http://localhost:11434", key: "none" },
  gemini: { model: "gemini-embedding-001", key: "required" },
  bedrock: { model: "amazon.titan-embed-text-v2:0", key: "optional", region: true },
};
