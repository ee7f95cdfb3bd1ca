import { describe, expect, it } from "vitest";
import { formFieldsFrom } from "../../../src/core/mcp/elicitation";
import { McpRequestRefused } from "../../../src/core/mcp/requests";
import { checkFormAnswer, type FormField } from "../../../src/shared/protocol/mcpRequests";

/** A form like the ones servers send: every kind of field the spec allows. */
const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", description: "Your full name", minLength: 2 },
    email: { type: "string", format: "email" },
    born: { type: "string", format: "date" },
    age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
    ratio: { type: "number" },
    agree: { type: "boolean", title: "Agree" },
    friend: { type: "string", enum: ["Monica", "Ross"] },
    hero: {
      type: "string",
      oneOf: [
        { const: "h1", title: "Superman" },
        { const: "h2", title: "Wonder Woman" },
      ],
      default: "h1",
    },
    pet: { type: "string", enum: ["p1", "p2"], enumNames: ["Cats", "Dogs"] },
    tools: { type: "array", items: { type: "string", enum: ["Guitar", "Piano"] }, minItems: 1, maxItems: 2 },
  },
  required: ["name", "agree"],
};

describe("the form of an elicitation request", () => {
  it("turns each property into a field of its kind, in order, with labels, limits and defaults", () => {
    const fields = formFieldsFrom(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["name", "text", true],
      ["email", "text", false],
      ["born", "text", false],
      ["age", "number", false],
      ["ratio", "number", false],
      ["agree", "boolean", true],
      ["friend", "select", false],
      ["hero", "select", false],
      ["pet", "select", false],
      ["tools", "multiselect", false],
    ]);
    expect(fields[0]).toMatchObject({ title: "Name", description: "Your full name", minLength: 2 });
    expect(fields[3]).toMatchObject({ integer: true, minimum: 0, maximum: 150, default: 30 });
    expect(fields[7]).toMatchObject({
      options: [
        { value: "h1", label: "Superman" },
        { value: "h2", label: "Wonder Woman" },
      ],
      default: "h1",
    });
    expect(fields[8]).toMatchObject({
      options: [
        { value: "p1", label: "Cats" },
        { value: "p2", label: "Dogs" },
      ],
    });
    expect(fields[9]).toMatchObject({
      options: [
        { value: "Guitar", label: "Guitar" },
        { value: "Piano", label: "Piano" },
      ],
      minItems: 1,
      maxItems: 2,
    });
  });

  it("refuses a nested object, an unknown type or format, naming the field", () => {
    const refusal = (properties: Record<string, unknown>) => {
      try {
        formFieldsFrom({ type: "object", properties });
      } catch (err) {
        expect(err).toBeInstanceOf(McpRequestRefused);
        return (err as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refusal({ address: { type: "object", properties: { street: { type: "string" } } } })).toMatch(/field "address" has the type "object".*flat text, number/);
    expect(refusal({ when: { type: "string", format: "time" } })).toMatch(/field "when" has the format "time"/);
    expect(refusal({ list: { type: "array", items: { type: "number" } } })).toMatch(/field "list" is a list of something other than choices/);
    expect(() => formFieldsFrom({ type: "array" })).toThrow(/not an object with properties/);
  });
});

describe("checking a submitted form", () => {
  const fields: FormField[] = formFieldsFrom(schema);

  it("passes typed values that fit and leaves blank optional fields out", () => {
    const check = checkFormAnswer(fields, { name: "Ada", agree: true, age: 36, email: "", hero: "h2", tools: ["Piano"], born: "1815-12-10" });
    expect(check).toEqual({ ok: true, content: { name: "Ada", agree: true, age: 36, hero: "h2", tools: ["Piano"], born: "1815-12-10" } });
  });

  it("names every missing required field and every value of the wrong type or range", () => {
    const check = checkFormAnswer(fields, { age: 36.5, ratio: "1", email: "not-an-address", friend: "Joey", tools: ["Piano", "Piano"] });
    expect(check.ok).toBe(false);
    expect(!check.ok && check.errors).toEqual([
      '"Name" is required',
      '"email" must be an email address',
      '"age" must be a whole number',
      '"ratio" must be a number',
      '"Agree" is required',
      '"friend" must be one of the choices',
      '"tools" lists a choice twice',
    ]);
  });

  it("holds text lengths, number ranges, choice counts and dates to the schema", () => {
    const errors = (content: Record<string, unknown>) => {
      const check = checkFormAnswer(fields, { name: "Ada", agree: false, ...content });
      return check.ok ? [] : check.errors;
    };
    expect(errors({ name: "A" })).toEqual(['"Name" needs at least 2 characters']);
    expect(errors({ age: 151 })).toEqual(['"age" must be at most 150']);
    expect(errors({ tools: ["Guitar", "Piano", "Drums"] })).toEqual(['"tools" must be among the choices']);
    expect(errors({ born: "10/12/1815" })).toEqual(['"born" must be a date (YYYY-MM-DD)']);
    expect(errors({ agree: "yes" })).toEqual(['"Agree" must be yes or no']);
  });

  it("refuses a field the form did not ask for", () => {
    const check = checkFormAnswer(fields, { name: "Ada", agree: true, password: "hunter2" });
    expect(!check.ok && check.errors).toEqual(['the form has no field "password"']);
  });
});
