import { useState, type ReactNode } from "react";

/**
 * A <details> that opens by itself while `autoOpen` holds (a preview while it streams, an error)
 * until the user toggles it: then their choice wins. Its body renders only while open, so a closed
 * 100 KB result costs nothing.
 */
export function Collapsible({ summary, autoOpen = false, className, testId, children }: { summary: ReactNode; autoOpen?: boolean; className?: string; testId?: string; children: () => ReactNode }) {
  const [chosen, setChosen] = useState<boolean | undefined>(undefined);
  const open = chosen ?? autoOpen;
  return (
    <details className={className} data-testid={testId} open={open}>
      {/* Controlled: the click is ours, so React's `open` and the element never disagree. */}
      <summary
        onClick={(event) => {
          event.preventDefault();
          setChosen(!open);
        }}
      >
        {summary}
      </summary>
      {open && children()}
    </details>
  );
}
