import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { GRAMMARS } from "../../../esbuild.mjs";
import { findMode } from "../../../src/core/modes/modes";
import { NodeFileSystem } from "../../../src/platform/node/nodeFileSystem";
import { runToolCall, type PipelineDeps } from "../../../src/core/agent/pipeline";
import { createDefaultRegistry } from "../../../src/core/tools/registry";
import { findDefinitions, loadGrammar } from "../../../src/core/tools/treeSitter/definitions";
import { QUERIES, type Grammar } from "../../../src/core/tools/treeSitter/queries";
import type { ToolUseBlock } from "../../../src/core/toolcall/types";

let cwd: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "kiln-defs-"));
});

function deps(): PipelineDeps {
  return {
    registry: createDefaultRegistry(),
    mode: findMode("code")!,
    approvals: { request: async () => ({ approved: true }) },
    autoApprove: { groups: new Set(["read"]), outsideWorkspace: false },
    context: { cwd, fs: new NodeFileSystem(), signal: new AbortController().signal },
  };
}

const call = (path: string): ToolUseBlock => ({ type: "tool_use", name: "list_code_definition_names", params: { path }, partial: false });

async function definitions(file: string, source: string): Promise<string> {
  writeFileSync(join(cwd, file), source);
  const result = await runToolCall(call(file), deps());
  expect(result.status).toBe("done");
  return result.forModel;
}

/** Each fixture: a file and the definition lines (`line | text`) the tool must list, in order. */
const FIXTURES: { file: string; source: string; expected: string[] }[] = [
  {
    file: "shapes.ts",
    source: `import { x } from "y";

export interface Shape {
  area(): number;
}
export type Id = string;
enum Color { Red }
namespace Geo {}
export abstract class Base {
  abstract name(): string;
}
export class Circle extends Base implements Shape {
  constructor(private r: number) { super(); }
  area(): number {
    return Math.PI * this.r ** 2;
  }
  name() { return "circle"; }
}
export function makeCircle(r: number): Circle {
  return new Circle(r);
}
export const double = (n: number) => n * 2;
const notAFunction = 3;
`,
    expected: [
      " 3 | export interface Shape {",
      " 6 | export type Id = string;",
      " 7 | enum Color { Red }",
      " 8 | namespace Geo {}",
      " 9 | export abstract class Base {",
      "10 |   abstract name(): string;",
      "12 | export class Circle extends Base implements Shape {",
      "13 |   constructor(private r: number) { super(); }",
      "14 |   area(): number {",
      '17 |   name() { return "circle"; }',
      "19 | export function makeCircle(r: number): Circle {",
      "22 | export const double = (n: number) => n * 2;",
    ],
  },
  {
    file: "view.tsx",
    source: `export function View(props: { title: string }) {
  return <div>{props.title}</div>;
}
export const Row = () => <span />;
interface Props { a: number }
`,
    expected: ["1 | export function View(props: { title: string }) {", "4 | export const Row = () => <span />;", "5 | interface Props { a: number }"],
  },
  {
    file: "app.js",
    source: `class Store {
  get(key) { return this.map[key]; }
  onClick = () => this.get("x");
}
function* ids() { yield 1; }
const handler = function (event) { return event; };
module.exports = { Store };
`,
    expected: [
      "1 | class Store {",
      "2 |   get(key) { return this.map[key]; }",
      '3 |   onClick = () => this.get("x");',
      "5 | function* ids() { yield 1; }",
      "6 | const handler = function (event) { return event; };",
    ],
  },
  {
    file: "model.py",
    source: `import os

class Account:
    def __init__(self, owner):
        self.owner = owner

    @property
    def name(self):
        return self.owner

def open_account(owner):
    return Account(owner)
`,
    expected: [" 3 | class Account:", " 4 |     def __init__(self, owner):", " 8 |     def name(self):", "11 | def open_account(owner):"],
  },
  {
    file: "server.go",
    source: `package main

type Server struct {
	port int
}

type Handler interface {
	Serve() error
}

func (s *Server) Start() error {
	return nil
}

func main() {}
`,
    expected: [" 3 | type Server struct {", " 7 | type Handler interface {", "11 | func (s *Server) Start() error {", "15 | func main() {}"],
  },
  {
    file: "lib.rs",
    source: `pub struct Point { x: i32 }

pub enum Shape { Dot }

pub trait Area {
    fn area(&self) -> f64;
}

impl Point {
    pub fn new(x: i32) -> Self { Point { x } }
}

mod inner {
    fn helper() {}
}

macro_rules! square { ($x:expr) => { $x * $x }; }
`,
    expected: [
      " 1 | pub struct Point { x: i32 }",
      " 3 | pub enum Shape { Dot }",
      " 5 | pub trait Area {",
      " 6 |     fn area(&self) -> f64;",
      " 9 | impl Point {",
      "10 |     pub fn new(x: i32) -> Self { Point { x } }",
      "13 | mod inner {",
      "14 |     fn helper() {}",
      "17 | macro_rules! square { ($x:expr) => { $x * $x }; }",
    ],
  },
  {
    file: "Main.java",
    source: `package app;

public class Main {
    public Main() {}
    public static void main(String[] args) {}
}

interface Greeter { String greet(String name); }

enum Level { LOW, HIGH }

record Pair(int a, int b) {}
`,
    expected: [
      " 3 | public class Main {",
      " 4 |     public Main() {}",
      " 5 |     public static void main(String[] args) {}",
      " 8 | interface Greeter { String greet(String name); }",
      "10 | enum Level { LOW, HIGH }",
      "12 | record Pair(int a, int b) {}",
    ],
  },
  {
    file: "list.c",
    source: `#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

typedef struct node node_t;

int list_length(const node_t *head);

static int *make_array(int n) {
    return malloc(n * sizeof(int));
}
`,
    expected: [" 3 | struct node {", " 8 | typedef struct node node_t;", "10 | int list_length(const node_t *head);", "12 | static int *make_array(int n) {"],
  },
  {
    file: "widget.cpp",
    source: `namespace ui {

class Widget {
public:
    void draw() const;
    int width() const { return w; }
private:
    int w;
};

void Widget::draw() const {}

template <typename T>
T clamp(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }

}
`,
    expected: [
      " 1 | namespace ui {",
      " 3 | class Widget {",
      " 5 |     void draw() const;",
      " 6 |     int width() const { return w; }",
      "11 | void Widget::draw() const {}",
      "14 | T clamp(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }",
    ],
  },
  {
    file: "Service.cs",
    source: `namespace App.Services
{
    public interface IService { void Run(); }

    public class Service : IService
    {
        public Service() {}
        public string Name { get; set; }
        public void Run() {}
    }

    public record User(string Name);
}
`,
    expected: [
      " 1 | namespace App.Services",
      " 3 |     public interface IService { void Run(); }",
      " 5 |     public class Service : IService",
      " 7 |         public Service() {}",
      " 8 |         public string Name { get; set; }",
      " 9 |         public void Run() {}",
      "12 |     public record User(string Name);",
    ],
  },
  {
    file: "greeter.rb",
    source: `module Greeting
  class Greeter
    def hello(name)
      "Hello, #{name}"
    end

    def self.build
      new
    end
  end
end
`,
    expected: ["1 | module Greeting", "2 |   class Greeter", "3 |     def hello(name)", "7 |     def self.build"],
  },
  {
    file: "Repo.php",
    source: `<?php
interface Repo { public function find(int $id); }

class UserRepo implements Repo {
    public function find(int $id) { return null; }
}

function helper() {}
`,
    expected: ["2 | interface Repo { public function find(int $id); }", "4 | class UserRepo implements Repo {", "5 |     public function find(int $id) { return null; }", "8 | function helper() {}"],
  },
];

describe("list_code_definition_names", () => {
  it("has a query that compiles for every grammar, and esbuild ships each grammar", async () => {
    for (const grammar of Object.keys(QUERIES) as Grammar[]) {
      await expect(loadGrammar(grammar), grammar).resolves.toBeDefined();
      expect(GRAMMARS, grammar).toContain(grammar);
    }
  });

  it.each(FIXTURES)("lists the definitions in $file", async ({ file, source, expected }) => {
    const text = await definitions(file, source);
    expect(text.split("\n")).toEqual([file, ...expected]);
  });

  it("lists the top-level source files of a folder, skipping ignored and unsupported ones", async () => {
    mkdirSync(join(cwd, "src", "deep"), { recursive: true });
    writeFileSync(join(cwd, "src", "a.ts"), "export function a() {}\n");
    writeFileSync(join(cwd, "src", "b.py"), "x = 1\n");
    writeFileSync(join(cwd, "src", "gen.ts"), "export function generated() {}\n");
    writeFileSync(join(cwd, "src", "notes.md"), "# function nope() {}\n");
    writeFileSync(join(cwd, "src", "deep", "c.ts"), "export function c() {}\n");
    writeFileSync(join(cwd, ".gitignore"), "src/gen.ts\n");
    const result = await runToolCall(call("src"), deps());
    expect(result.forModel).toBe("src/a.ts\n1 | export function a() {}\n\nsrc/b.py\n(no definitions found)");
  });

  it("caps a folder at 50 files with a note", async () => {
    for (let i = 0; i < 55; i++) writeFileSync(join(cwd, `m${String(i).padStart(2, "0")}.ts`), `export function f${i}() {}\n`);
    const result = await runToolCall(call("."), deps());
    expect(result.forModel).toContain("m49.ts\n1 | export function f49() {}");
    expect(result.forModel).not.toContain("m50.ts");
    expect(result.forModel).toContain("[Listed 50 of 55 source files. Give a single file as path to see the others.]");
  });

  it("says what to do for unsupported files, missing paths and hidden files", async () => {
    writeFileSync(join(cwd, "notes.txt"), "hello\n");
    writeFileSync(join(cwd, "secret.ts"), "export const key = () => 1;\n");
    writeFileSync(join(cwd, ".kilocodeignore"), "secret.ts\n");
    const unsupported = await runToolCall(call("notes.txt"), deps());
    expect(unsupported.status).toBe("error");
    expect(unsupported.forModel).toMatch(/^Error: notes.txt is not a supported source file \(supported: .ts .*\)\. Read it with read_file instead\.$/);
    expect((await runToolCall(call("nope.ts"), deps())).forModel).toBe("Error: nope.ts does not exist.");
    expect((await runToolCall(call("secret.ts"), deps())).forModel).toContain("hidden from Kiln by .kilocodeignore");
    const folder = await runToolCall(call("."), deps());
    expect(folder.forModel).not.toContain("secret");
  });

  it("parses a large file quickly once the grammar is loaded", async () => {
    const source = Array.from({ length: 1000 }, (_, i) => `export class C${i} {\n  m${i}(): number { return ${i}; }\n  n${i} = () => ${i};\n  p = 1;\n  q = 2;\n}\n`).join("");
    writeFileSync(join(cwd, "big.ts"), source);
    await loadGrammar("typescript");
    const t0 = performance.now();
    const found = await findDefinitions("typescript", source);
    const elapsed = performance.now() - t0;
    expect(found).toHaveLength(3000);
    expect(found[2]).toEqual({ line: 3, text: "  n0 = () => 0;" });
    expect(elapsed).toBeLessThan(2000);
  });
});
