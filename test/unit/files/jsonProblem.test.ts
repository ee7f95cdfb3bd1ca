import { describe, expect, it } from "vitest";
import { jsonProblem } from "../../../src/core/files/jsonProblem";

const problemOf = (text: string) => {
  try {
    JSON.parse(text);
  } catch (err) {
    return jsonProblem(err, text);
  }
  throw new Error("parsed");
};

describe("a JSON file's problem, as people and logs see it", () => {
  it("never quotes the file: a key beside the fault stays out", () => {
    const key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv";
    for (const text of [`{"apiKey": "${key}", "x": undefined}`, `{"apiKey": "${key}" "next": 1}`, `[{"text": "${key}`]) {
      const problem = problemOf(text);
      expect(problem).not.toContain(key.slice(0, 12));
      expect(problem.length).toBeGreaterThan(10);
    }
  });

  it("says where, as line and column", () => {
    expect(problemOf('{\n  "a": 1,\n  "b": 2,\n}')).toBe("Expected double-quoted property name in JSON at line 4, column 1");
  });
});
