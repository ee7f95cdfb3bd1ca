import { useEffect, useRef, useState } from "react";
import type { Result } from "./model";

/**
 * The host's answer to the latest request a control sent; undefined while it is on its way. An
 * earlier request that answers late is not shown.
 */
export function useLatestAnswer(): [Result | undefined, (answered: Promise<Result>) => void] {
  const [answer, setAnswer] = useState<Result | undefined>();
  const latest = useRef(0);
  const track = (answered: Promise<Result>) => {
    const turn = ++latest.current;
    setAnswer(undefined);
    void answered.then((result) => turn === latest.current && setAnswer(result));
  };
  return [answer, track];
}

/**
 * A form's save: checks refused in the page, or the host's answer to the request it sent. The
 * form closes (onDone) when the host says the save worked; a refusal stays shown with its field.
 */
export function useSaveRequest(onDone: () => void) {
  const [local, setLocal] = useState<Result | undefined>();
  const [answer, track] = useLatestAnswer();
  const error = local ?? (answer && !answer.ok ? answer : undefined);

  useEffect(() => {
    if (answer?.ok) onDone();
  }, [answer, onDone]);

  return {
    error,
    refuse: (field: string, message: string) => setLocal({ ok: false, field, message }),
    /** Shows the answer to a request just sent, with any earlier refusal cleared. */
    submit: (answered: Promise<Result>): void => {
      setLocal(undefined);
      track(answered);
    },
  };
}
