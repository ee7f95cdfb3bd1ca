import * as l10n from "@vscode/l10n";

/**
 * The notification for project MCP servers a load left blocked, in the user's language (pure, so
 * it is tested without VS Code). `defined`: the project's servers that are not disabled; `names`:
 * the blocked ones; `untrusted`: one of them waits for the workspace to be trusted.
 */
export function blockedServersNotice(names: readonly string[], defined: number, untrusted: boolean): string {
  const list = names.join(", ");
  if (names.length === defined) {
    if (defined === 1) {
      return untrusted
        ? l10n.t("This project's .kilocode/mcp.json defines 1 MCP server ({0}). Kiln has not started it because this workspace is not trusted.", list)
        : l10n.t("This project's .kilocode/mcp.json defines 1 MCP server ({0}). Kiln has not started it.", list);
    }
    return untrusted
      ? l10n.t("This project's .kilocode/mcp.json defines {0} MCP servers ({1}). Kiln has not started them because this workspace is not trusted.", defined, list)
      : l10n.t("This project's .kilocode/mcp.json defines {0} MCP servers ({1}). Kiln has not started them.", defined, list);
  }
  return untrusted
    ? l10n.t("This project's .kilocode/mcp.json defines {0} MCP servers. Kiln has not started {1} of them ({2}) because this workspace is not trusted.", defined, names.length, list)
    : l10n.t("This project's .kilocode/mcp.json defines {0} MCP servers. Kiln has not started {1} of them ({2}).", defined, names.length, list);
}
