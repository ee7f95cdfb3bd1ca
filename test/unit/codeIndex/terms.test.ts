import { describe, expect, it } from "vitest";
import { pathTerms, stem, termsOf } from "../../../src/core/codeIndex/terms";

describe("termsOf", () => {
  it("splits an identifier in any convention into its words, and keeps it whole too", () => {
    const expected = ["hashpassword", "hash", "password"];
    for (const spelling of ["hashPassword", "HashPassword", "hash_password", "HASH_PASSWORD", "hash-password", "__hash_password__"]) {
      expect(termsOf(spelling), spelling).toEqual(expected);
    }
    // A single word is not repeated as its own "whole".
    expect(termsOf("password")).toEqual(["password"]);
  });

  it("ends an acronym where a capitalised word begins, and keeps digits with the letters before them", () => {
    expect(termsOf("HTTPServer")).toEqual(["httpserver", "http", "server"]);
    expect(termsOf("XMLHttpRequest")).toEqual(["xmlhttprequest", "xml", "http", "request"]);
    expect(termsOf("utf8Decode")).toEqual(["utf8decode", "utf8", ...termsOf("decode")]);
    expect(termsOf("HTTP2Server")).toEqual(["http2server", "http2", "server"]);
    expect(termsOf("sha256 base64 int32")).toEqual(["sha256", "base64", "int32"]);
  });

  it("splits dotted paths without joining them: their parts are separate names", () => {
    expect(termsOf("path.join(os.homedir)")).toEqual(["path", "join", "os", "homedir"]);
  });

  it("keeps words in order with their repeats, lower-cased", () => {
    expect(termsOf("User login; USER logout")).toEqual(["user", "login", "user", "logout"]);
  });

  it("gives a word's plural, -ing and -ed forms the same term as the word", () => {
    const same = [
      ["password", "passwords"],
      ["hash", "hashes", "hashing", "hashed"],
      ["query", "queries", "queried", "querying"],
      ["cache", "caches", "caching", "cached"],
      ["run", "running"],
      ["setting", "settings"],
      ["index", "indexes", "indexed", "indexing"],
      ["class", "classes"],
      ["use", "uses", "used", "using"],
      ["id", "ids"],
      ["embed", "embeds", "embedded", "embedding"],
    ];
    for (const forms of same) expect(new Set(forms.map(stem)), forms.join("/")).toHaveLength(1);
    expect(termsOf("Hashing passwords")).toEqual(termsOf("hash password"));
  });

  it("does not stem words whose ending is not an inflection", () => {
    for (const word of ["status", "class", "access", "string", "thing", "need", "speed", "add", "bus"]) expect(stem(word), word).toBe(word);
    expect(stem("string")).not.toBe(stem("str"));
    // Only lower-case ASCII words are stemmed; a name with digits or another alphabet is left as it is.
    expect(stem("utf8s")).toBe("utf8s");
    expect(stem("cafés")).toBe("cafés");
  });

  it("drops English function words and the keywords every file is full of", () => {
    expect(termsOf("const x = function () { return this.value; }")).toEqual(termsOf("value"));
    expect(termsOf("the a of and is it to if else import export from let var async await null true")).toEqual([]);
    // Checked before stemming: words about returns and imports are kept, though the keywords are not.
    expect(termsOf("returns imports")).toEqual([stem("returns"), stem("imports")]);
  });

  it("drops one-character and over-40-character tokens", () => {
    const hash = "a".repeat(41);
    expect(termsOf(`a b i x1 ${hash} ${"b".repeat(40)}`)).toEqual(["x1", "b".repeat(40)]);
    // The whole of a very long identifier goes, its words stay.
    expect(termsOf("aVeryLongIdentifierNameThatGoesOnAndOnAndOnForever")).toContain("identifier");
    expect(termsOf("aVeryLongIdentifierNameThatGoesOnAndOnAndOnForever").some((t) => t.length > 40)).toBe(false);
  });

  it("keeps Unicode letters, a script without spaces as one run, and one spelling of an accent", () => {
    expect(termsOf("Café 中文 naïve — “quoted”")).toEqual(["café", "中文", "naïve", "quot"]);
    expect(termsOf("cafe\u0301")).toEqual(termsOf("caf\u00e9"));
    expect(termsOf("größe_berechnen")).toEqual(["größeberechnen", "größe", "berechnen"]);
  });

  it("does not join words across a minus before a number", () => {
    expect(termsOf("count-1")).toEqual(["count"]);
    expect(termsOf("--max-count")).toEqual(["maxcount", "max", "count"]);
  });

  it("keeps numbers of two digits or more", () => {
    expect(termsOf("error 404 on port 8080")).toEqual(["error", "404", "port", "8080"]);
  });
});

describe("pathTerms", () => {
  it("gives the folders' and the file's words, without the extension", () => {
    expect(pathTerms("src/auth/hashPassword.ts")).toEqual(["src", "auth", "hashpassword", "hash", "password"]);
    expect(pathTerms("src/code-index/full_text.test.ts")).toEqual(["src", "codeindex", ...termsOf("code"), "index", "fulltext", "full", "text", "test"]);
    expect(pathTerms("Makefile")).toEqual(termsOf("Makefile"));
  });

  it("keeps a name that is only an extension", () => {
    expect(pathTerms(".gitignore")).toEqual(termsOf("gitignore"));
    expect(pathTerms("config/.env")).toEqual(["config", "env"]);
  });
});
