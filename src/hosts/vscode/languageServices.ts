import * as vscode from "vscode";
import type {
  CallDirection,
  CallHierarchy,
  CallHierarchyCall,
  CallHierarchyItem,
  CodeLocation,
  LanguageAnswer,
  LanguageServices,
  RenameAnswer,
  SymbolPosition,
  TextRange,
  WorkspaceSymbol,
} from "../../core/ports/languageServices";

/**
 * Waits this long for a language's extensions to start and their providers to answer the first time:
 * an empty answer from a server still loading its project is retried until then.
 */
const STARTUP_WAIT_MS = 20_000;
const RETRY_MS = 500;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function range(r: vscode.Range): TextRange {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

/** A location the core can show: files on disk only (a virtual document has no path to read). */
function location(uri: vscode.Uri, name: vscode.Range, full?: vscode.Range): CodeLocation[] {
  if (uri.scheme !== "file") return [];
  return [{ path: uri.fsPath, range: range(name), ...(full && { fullRange: range(full) }) }];
}

function fromDefinition(found: vscode.Location | vscode.LocationLink): CodeLocation[] {
  if ("targetUri" in found) return location(found.targetUri, found.targetSelectionRange ?? found.targetRange, found.targetRange);
  return location(found.uri, found.range);
}

/** `SymbolKind.TypeParameter` as "type parameter". */
function kindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? "symbol").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function hierarchyItem(item: vscode.CallHierarchyItem): CallHierarchyItem | undefined {
  const [where] = location(item.uri, item.selectionRange, item.range);
  return where && { name: item.name, kind: kindName(item.kind), ...(item.detail ? { detail: item.detail } : {}), location: where };
}

/**
 * The language services of the editor: VS Code's providers, asked through its built-in commands, so
 * whatever language extensions the user has answer (the TypeScript server that ships with VS Code,
 * Pylance, rust-analyzer, gopls…). Positions and paths go out and come back as plain data.
 */
export class VsCodeLanguageServices implements LanguageServices {
  /** Languages whose servers have answered once: an empty answer from them is taken as it is. */
  private readonly answered = new Set<string>();

  async definitions(at: SymbolPosition): Promise<LanguageAnswer<CodeLocation[]>> {
    return this.ask(at, async (uri, position) => {
      const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>("vscode.executeDefinitionProvider", uri, position);
      return (found ?? []).flatMap(fromDefinition);
    });
  }

  async references(at: SymbolPosition): Promise<LanguageAnswer<CodeLocation[]>> {
    return this.ask(at, async (uri, position) => {
      const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>("vscode.executeReferenceProvider", uri, position);
      return (found ?? []).flatMap((l) => location(l.uri, l.range));
    });
  }

  async workspaceSymbols(query: string): Promise<WorkspaceSymbol[]> {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query);
    return (found ?? []).flatMap((symbol) =>
      location(symbol.location.uri, symbol.location.range).map((where) => ({
        name: symbol.name,
        kind: kindName(symbol.kind),
        ...(symbol.containerName ? { container: symbol.containerName } : {}),
        location: where,
      })),
    );
  }

  async calls(at: SymbolPosition, direction: CallDirection): Promise<LanguageAnswer<CallHierarchy>> {
    const answer = await this.ask(at, async (uri, position) => (await vscode.commands.executeCommand<vscode.CallHierarchyItem[] | undefined>("vscode.prepareCallHierarchy", uri, position)) ?? []);
    const calls: CallHierarchyCall[] = [];
    for (const item of answer.result) {
      if (direction === "incoming") {
        const incoming = (await vscode.commands.executeCommand<vscode.CallHierarchyIncomingCall[] | undefined>("vscode.provideIncomingCalls", item)) ?? [];
        for (const call of incoming) {
          const from = hierarchyItem(call.from);
          if (from) calls.push({ item: from, callSites: call.fromRanges.map(range) });
        }
      } else {
        const outgoing = (await vscode.commands.executeCommand<vscode.CallHierarchyOutgoingCall[] | undefined>("vscode.provideOutgoingCalls", item)) ?? [];
        for (const call of outgoing) {
          const to = hierarchyItem(call.to);
          if (to) calls.push({ item: to, callSites: call.fromRanges.map(range) });
        }
      }
    }
    return { language: answer.language, result: { items: answer.result.flatMap((item) => hierarchyItem(item) ?? []), calls } };
  }

  async rename(at: SymbolPosition, newName: string): Promise<LanguageAnswer<RenameAnswer>> {
    const { document } = await this.open(at.path);
    const position = new vscode.Position(at.position.line, at.position.character);
    let edit: vscode.WorkspaceEdit | undefined;
    try {
      edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>("vscode.executeDocumentRenameProvider", document.uri, position, newName);
    } catch (err) {
      // A server that refuses (a keyword, a library's symbol) says why by throwing.
      return { language: document.languageId, result: { ok: false, reason: err instanceof Error ? err.message : String(err) } };
    }
    const files = (edit?.entries() ?? []).map(([uri, edits]) => ({ uri, edits }));
    const outside = files.find((f) => f.uri.scheme !== "file");
    if (outside) return { language: document.languageId, result: { ok: false, reason: `the rename would change ${outside.uri.toString()}, which is not a file on disk` } };
    return {
      language: document.languageId,
      result: { ok: true, files: files.map(({ uri, edits }) => ({ path: uri.fsPath, edits: edits.map((e) => ({ range: range(e.range), newText: e.newText })) })) },
    };
  }

  /** Opens the file (as the editor has it) and asks; an empty answer is asked again while the language's servers start. */
  private async ask<T>(at: SymbolPosition, query: (uri: vscode.Uri, position: vscode.Position) => Promise<T[]>): Promise<LanguageAnswer<T[]>> {
    const { document, served } = await this.open(at.path);
    const language = document.languageId;
    const position = new vscode.Position(at.position.line, at.position.character);
    let result = await query(document.uri, position);
    const deadline = Date.now() + STARTUP_WAIT_MS;
    while (result.length === 0 && served && !this.answered.has(language) && Date.now() < deadline) {
      await delay(RETRY_MS);
      result = await query(document.uri, position);
    }
    // Answered, or waited for long enough: from now on an empty answer is the server's word.
    this.answered.add(language);
    return { language, result };
  }

  /**
   * The document, with the extensions that start for its language started (their providers answer
   * from then on); `served`: some extension starts for the language, so an empty first answer may
   * be a server still loading rather than no server at all.
   */
  private async open(path: string): Promise<{ document: vscode.TextDocument; served: boolean }> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const event = `onLanguage:${document.languageId}`;
    const serving = vscode.extensions.all.filter((e) => ((e.packageJSON as { activationEvents?: unknown }).activationEvents as unknown[] | undefined)?.includes(event));
    const starting = serving.filter((e) => !e.isActive);
    if (starting.length > 0) await Promise.race([Promise.allSettled(starting.map((e) => e.activate())), delay(STARTUP_WAIT_MS)]);
    return { document, served: serving.length > 0 };
  }
}
