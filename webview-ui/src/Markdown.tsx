import * as l10n from "@vscode/l10n";
import { memo, useMemo, type ComponentProps, type MouseEvent } from "react";
import ReactMarkdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./CodeBlock";
import { splitBlocks } from "./markdownBlocks";
import { send } from "./vscodeApi";

// Module constants: new arrays per render would defeat react-markdown's own work-skipping.
const remarkPlugins: NonNullable<Options["remarkPlugins"]> = [remarkGfm];
// Only labelled blocks are highlighted: guessing a language runs every grammar over the code.
// Built once: rehype-highlight compiles its grammars each time it is attached, and react-markdown
// attaches its plugins on every render, which would make each streamed token pay for that.
const highlight = rehypeHighlight({ detect: false, plainText: ["text", "txt", "plain", "plaintext"] });
const rehypePlugins: NonNullable<Options["rehypePlugins"]> = [() => highlight];

const WEB_URL = /^https?:\/\//i;

/**
 * Links leave through the host, which opens web pages only: a plain <a> would navigate the webview
 * itself away from the chat.
 */
function Link({ href, children, title }: ComponentProps<"a"> & ExtraProps) {
  const web = href !== undefined && WEB_URL.test(href);
  const open = (event: MouseEvent) => {
    event.preventDefault();
    if (web) send({ type: "chat/openLink", url: href });
  };
  return (
    <a href={href} title={web ? (title ?? href) : l10n.t("Only web links open from the chat")} onClick={open}>
      {children}
    </a>
  );
}

/** Images would load from wherever the model points (the CSP blocks them anyway): shown as a link. */
function Image({ src, alt }: ComponentProps<"img"> & ExtraProps) {
  const url = typeof src === "string" ? src : undefined;
  return <Link href={url}>{l10n.t("[image: {0}]", alt || url || "?")}</Link>;
}

const components: Components = { a: Link, img: Image, pre: CodeBlock };

/** One piece of the message: memoized, so a streamed token re-renders only the piece it grew. */
const Block = memo(function Block({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
      {text}
    </ReactMarkdown>
  );
});

/**
 * Model output as Markdown (GFM): raw HTML in it shows as text, never as markup (react-markdown's
 * default, kept on purpose: the text is untrusted). An unclosed code fence in a streaming message
 * renders as code up to the end, as CommonMark says.
 */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div className={className ? `markdown ${className}` : "markdown"}>
      {blocks.map((block, i) => (
        <Block key={i} text={block} />
      ))}
    </div>
  );
});
