import * as assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ProfileImportView } from "../../../src/shared/protocol/settings";
import { kiln, setKiln, toSettings } from "./helpers";

const ANTHROPIC_KEY = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

/** A Roo Code "Export settings" file: profiles by name with their keys, and a mode pinned to one by id. */
function rooExport(): vscode.Uri {
  const file = join(mkdtempSync(join(tmpdir(), "kiln-roo-export-")), "roo-code-settings.json");
  writeFileSync(
    file,
    JSON.stringify({
      providerProfiles: {
        currentApiConfigName: "Claude",
        apiConfigs: {
          Claude: { id: "c1", apiProvider: "anthropic", apiModelId: "claude-sonnet-4-5", apiKey: ANTHROPIC_KEY },
          "Local Qwen": { id: "q1", apiProvider: "openai", openAiBaseUrl: "http://localhost:8000/v1", openAiModelId: "qwen3-coder" },
          Relay: { id: "h1", apiProvider: "human-relay" },
        },
        modeApiConfigs: { architect: "c1" },
      },
      globalSettings: { autoApprovalEnabled: true },
    }),
  );
  return vscode.Uri.file(file);
}

describe("provider profiles from a Roo settings export, in the real host", () => {
  let restore: () => Promise<void>;
  beforeEach(async () => {
    restore = await setKiln({ profiles: undefined, modeProfiles: undefined, activeProfile: undefined });
  });
  afterEach(() => restore());

  it("adds the profiles to kiln.profiles without their keys, pins the mode, names what needs a key, and adds nothing the second time", async () => {
    const api = await kiln();
    const file = rooExport();
    const view = await vscode.commands.executeCommand<ProfileImportView>("kiln.importSettingsFile", file);
    assert.deepEqual(view.imported, ["Claude", "Local Qwen"]);
    assert.deepEqual(view.needKey.includes("Claude"), true);
    assert.deepEqual(
      view.skipped.map((s) => s.name),
      ["Relay"],
    );
    const config = vscode.workspace.getConfiguration("kiln");
    const written = JSON.stringify([config.get("profiles"), config.get("modeProfiles")]);
    assert.ok(!written.includes(ANTHROPIC_KEY), "no key reaches the settings");
    assert.deepEqual(config.get("modeProfiles"), { architect: "Claude" });
    const { state } = await toSettings(api, { type: "settings/ready" });
    const local = state?.profiles.find((p) => p.name === "Local Qwen");
    assert.deepEqual(local && [local.kind, local.baseUrl, local.model, local.hasKey], ["openai-compatible", "http://localhost:8000/v1", "qwen3-coder", false]);
    assert.equal(state?.profiles.find((p) => p.name === "Claude")?.hasKey, false);

    const again = await vscode.commands.executeCommand<ProfileImportView>("kiln.importSettingsFile", file);
    assert.deepEqual([again.imported, again.alreadyThere], [[], ["Claude", "Local Qwen"]]);
  });
});
