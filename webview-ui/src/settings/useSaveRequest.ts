import { useEffect, useState } from "react";
import { requestId } from "./api";
import type { Result } from "./model";

/**
 * A form's save: checks refused in the page, or the host's answer to the request it sent. The
 * form closes (onDone) when the host says the save worked; a refusal stays shown with its field.
 */
export function useSaveRequest(results: ReadonlyMap<string, Result>, onDone: () => void) {
  const [local, setLocal] = useState<Result | undefined>();
  const [pending, setPending] = useState<string | undefined>();
  const answer = pending ? results.get(pending) : undefined;
  const error = local ?? (answer && !answer.ok ? answer : undefined);

  useEffect(() => {
    if (answer?.ok) onDone();
  }, [answer, onDone]);

  return {
    error,
    refuse: (field: string, message: string) => setLocal({ ok: false, field, message }),
    /** A new request id, with any earlier refusal cleared: send the request with it. */
    begin: (): string => {
      setLocal(undefined);
      const id = requestId();
      setPending(id);
      return id;
    },
  };
}
