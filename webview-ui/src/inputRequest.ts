import { useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from "react";
import type { InputRequest } from "./store";

/** Text added by Add to Context goes after what the user typed, a blank line between. */
export function appendToDraft(draft: string, added: string): string {
  if (draft.trim() === "") return added;
  return `${draft.replace(/\s+$/, "")}\n\n${added}`;
}

/**
 * Carries out the host's asks of the chat input: append the reference and code, then put the
 * cursor at the end so the user types their question right after it. Each request id acts once.
 */
export function useInputRequest(request: InputRequest | undefined, setText: Dispatch<SetStateAction<string>>, input: RefObject<HTMLTextAreaElement | null>): void {
  const done = useRef(0);
  useEffect(() => {
    if (!request || request.id === done.current) return;
    done.current = request.id;
    const added = request.append;
    if (added !== undefined) setText((draft) => appendToDraft(draft, added));
    // After the new text has rendered, so the cursor lands after it.
    requestAnimationFrame(() => {
      const box = input.current;
      if (!box) return;
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
      box.scrollTop = box.scrollHeight;
    });
  }, [request, setText, input]);
}
