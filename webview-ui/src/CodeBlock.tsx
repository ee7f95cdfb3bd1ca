import * as l10n from "@vscode/l10n";
import { useEffect, useRef, useState, type ComponentProps } from "react";
import type { ExtraProps } from "react-markdown";

/** The plain text under a syntax tree node: highlighting splits code into spans, the clipboard wants it whole. */
interface TextNode {
  type: string;
  value?: string;
  children?: TextNode[];
}
function textOf(node: TextNode): string {
  if (node.type === "text") return node.value ?? "";
  return node.children?.map(textOf).join("") ?? "";
}

/** `language-ts` on the code element names the language for the toolbar. */
function languageOf(node: ExtraProps["node"]): string | undefined {
  const code = node?.children.find((child) => child.type === "element" && child.tagName === "code");
  const classes = code?.type === "element" ? code.properties.className : undefined;
  const match = Array.isArray(classes) ? classes.map(String).find((c) => c.startsWith("language-")) : undefined;
  return match?.slice("language-".length);
}

/** A fenced code block from Markdown: its language and a Copy button above the code. */
export function CodeBlock({ node, children }: ComponentProps<"pre"> & ExtraProps) {
  const language = languageOf(node);
  return (
    <div className="code-block" data-testid="code-block">
      <div className="code-toolbar">
        <span className="code-language">{language ?? ""}</span>
        {/* Without the final newline: pasted into a terminal, it would run the command at once. */}
        <CopyButton text={() => (node ? textOf(node).replace(/\r?\n$/, "") : "")} />
      </div>
      <pre>{children}</pre>
    </div>
  );
}

/** Copies on click and says so for a moment. `text` is a function: the copy is made only when asked. */
export function CopyButton({ text, label }: { text: () => string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = () => {
    navigator.clipboard.writeText(text()).then(
      () => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 1500);
      },
      (err: unknown) => console.warn("Kiln: copy to the clipboard failed", err),
    );
  };
  return (
    <button className="copy-button" data-testid="copy" title={l10n.t("Copy to the clipboard")} onClick={copy}>
      {copied ? l10n.t("Copied") : (label ?? l10n.t("Copy"))}
    </button>
  );
}
