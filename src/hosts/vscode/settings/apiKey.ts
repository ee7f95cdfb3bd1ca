import * as l10n from "@vscode/l10n";
import * as vscode from "vscode";
import { apiKeySecretName, PROVIDER_KINDS, type ProviderKind } from "../../../core/llm/types";
import type { Logger } from "../../../core/ports";
import { readProviderSettings } from "./providerConfig";
import type { ProfileStore } from "./profileStore";
import type { Profile } from "./profiles";

/**
 * Asks for the key of the configured provider (or `kind`) and keeps it in SecretStorage only.
 * The key may be passed as an argument by automation; it is never logged or echoed.
 */
export async function setApiKey(secrets: vscode.SecretStorage, logger: Logger, key?: unknown, kind?: unknown): Promise<boolean> {
  let target: ProviderKind;
  if (typeof kind === "string" && PROVIDER_KINDS.includes(kind as ProviderKind)) {
    target = kind as ProviderKind;
  } else {
    try {
      target = readProviderSettings().kind;
    } catch (err) {
      void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
      return false;
    }
  }
  const value =
    typeof key === "string"
      ? key
      : await vscode.window.showInputBox({
          title: l10n.t("Kiln: API key for {0}", target),
          prompt: l10n.t("Stored in VS Code's secret storage, never in settings files or logs. Leave empty to remove it."),
          password: true,
          ignoreFocusOut: true,
        });
  if (value === undefined) return false;
  const trimmed = value.trim();
  if (trimmed === "") {
    await secrets.delete(apiKeySecretName(target));
    logger.info(`API key for ${target} removed`);
    return true;
  }
  if (/\s/.test(trimmed) || trimmed.length > 4096) {
    void vscode.window.showErrorMessage(l10n.t("That does not look like an API key (it has spaces or is very long); nothing was saved."));
    return false;
  }
  await secrets.store(apiKeySecretName(target), trimmed);
  logger.info(`API key for ${target} saved to secret storage`);
  return true;
}

/**
 * Set API key on a chat error: asks for the key of the profile in use and keeps it in SecretStorage.
 * True once a key was saved; an empty answer changes nothing (the settings page removes keys).
 */
export async function askProfileKey(store: ProfileStore, profile: Profile): Promise<boolean> {
  const value = await vscode.window.showInputBox({
    title: l10n.t("Kiln: API key for {0} ({1})", profile.name, profile.kind),
    prompt: l10n.t("Stored in VS Code's secret storage, never in settings files or logs."),
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined || value.trim() === "") return false;
  const refused = await store.setKey(profile, value);
  if (refused) void vscode.window.showErrorMessage(l10n.t("Kiln: {0}.", refused));
  return refused === undefined;
}
