import { Fragment, type ReactNode } from "react";

/*
 * A translated sentence with elements inside it ("Answers come from <b>model</b> through …"): the
 * message keeps its {0} {1} where the elements go, so a translation may move them, and the page
 * puts the elements back where the translation left them.
 *
 *   withSlots(l10n.t("Answers come from {0} through {1}.", slot(0), slot(1)), [<b>{model}</b>, <b>{kind}</b>])
 */
const MARK = "\u0001";

/** The stand-in l10n.t puts where element `index` goes. */
export function slot(index: number): string {
  return `${MARK}${index}${MARK}`;
}

export function withSlots(translated: string, elements: readonly ReactNode[]): ReactNode {
  const parts = translated.split(new RegExp(`${MARK}(\\d+)${MARK}`));
  return parts.map((part, i) => <Fragment key={i}>{i % 2 === 1 ? elements[Number(part)] : part}</Fragment>);
}
