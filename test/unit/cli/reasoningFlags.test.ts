import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../../src/hosts/cli/args";

describe("the CLI's reasoning flags", () => {
  it("take an effort word or a budget in tokens into the provider settings", () => {
    expect(parseArgs(["run", "--reasoning", "high", "task"], {}, "/ws").settings).toMatchObject({ reasoningEffort: "high" });
    expect(parseArgs(["run", "--thinking-budget", "16000", "task"], {}, "/ws").settings).toMatchObject({ thinkingBudget: 16_000 });
  });

  it.each([
    [["--reasoning", "max"], '--reasoning must be low, medium, high (got "max")'],
    [["--thinking-budget", "512"], '--thinking-budget must be a whole number from 1024 to 200000 (got "512")'],
    [["--thinking-budget", "8k"], '--thinking-budget must be a whole number from 1024 to 200000 (got "8k")'],
    [["--reasoning", "low", "--thinking-budget", "4096"], "give --reasoning or --thinking-budget, not both"],
  ])("refuse %j with a usage error", (flags, message) => {
    expect(() => parseArgs(["run", ...flags, "task"], {}, "/ws")).toThrow(new UsageError(message));
  });
});
