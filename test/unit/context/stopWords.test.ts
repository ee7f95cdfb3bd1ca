import { describe, expect, it } from "vitest";
import { replyTooLong, toolCallRefused, tooManyToolCalls } from "../../../src/core/agent/replyLimits";
import { checkBudget, type BudgetCheck } from "../../../src/core/context/budget";
import { inPseudoLocale, translated } from "../pseudoL10n";

/** Why a budget stops a task: what the chat's error card says. */
const why = (check: BudgetCheck) => (check.ok ? "" : check.reason);

describe("why Kiln stopped, in the user's language", () => {
  inPseudoLocale();

  it("each budget's reason is a translated sentence with its numbers in it", () => {
    const next = { inputTokens: 9_000, maxOutputTokens: 1_000, maxCost: 0.5 };
    const reasons = [
      why(checkBudget({ maxInputPerRequest: 8_000 }, { tokens: 0, cost: 0 }, next)),
      why(checkBudget({ maxTokens: 5_000 }, { tokens: 1_000, cost: 0 }, next)),
      why(checkBudget({ maxCost: 1 }, { tokens: 0, cost: undefined }, { ...next, maxCost: undefined })),
      why(checkBudget({ maxCost: 1 }, { tokens: 0, cost: 0.75 }, next)),
    ];
    for (const reason of reasons) expect(translated(reason), reason).toBe(true);
    expect(reasons[1]).toContain("5,000");
  });

  it("a reply cut at a limit tells the user in their language and the model in English", () => {
    for (const cut of [replyTooLong(100_000), toolCallRefused("write_to_file"), tooManyToolCalls(20)]) {
      expect(translated(cut.forUser), cut.forUser).toBe(true);
      expect(cut.forModel).not.toContain("⟦");
    }
  });
});
