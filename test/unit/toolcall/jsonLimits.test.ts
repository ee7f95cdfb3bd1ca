import { describe, expect, it } from "vitest";
import { JsonDepthGauge, parseJsonWithinLimits } from "../../../src/core/toolcall/jsonLimits";
import { parseStructured } from "../../../src/core/tools/structured";

describe("JSON from a model, read behind a depth limit", () => {
  it("follows nesting across pieces, skipping brackets inside strings and escaped quotes", () => {
    const gauge = new JsonDepthGauge();
    for (const piece of ['{"a": "[[[\\"[[', '[", "b": [[', "1]]}"]) gauge.push(piece);
    expect(gauge.deepest).toBe(3);
  });

  it("parses JSON within the limit and refuses JSON nested a million deep before parsing it", () => {
    expect(parseJsonWithinLimits('{"a": [[1]]}')).toEqual({ ok: true, value: { a: [[1]] } });
    expect(parseJsonWithinLimits(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`)).toEqual({ ok: false, error: "nested more than 64 levels deep, the limit for JSON arguments" });
    expect(parseJsonWithinLimits("{nope")).toMatchObject({ ok: false, error: expect.stringMatching(/^not valid JSON/) });
  });

  it("holds for a tool's structured parameter given as JSON", () => {
    expect(parseStructured(`[${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}]`)).toEqual({ ok: false, error: "nested more than 64 levels deep, the limit for JSON arguments" });
  });
});
