import * as l10n from "@vscode/l10n";
import type { ProfileForm } from "../../../src/shared/protocol/settings";
import { settingsRequester } from "./api";
import { ModelList, useModelList } from "./ModelList";

/**
 * The profile editor's model picker: asks the host for the list of the provider the form is set to
 * (with the form's URL and the profile's key), then searches it as the user types. A pick fills the
 * model field; the field stays free text, for ids a list does not show.
 */
export function ModelPicker({ form, original, onPick }: { form: () => ProfileForm; original?: string; onPick(id: string): void }) {
  const { loaded, load, reset } = useModelList((refresh) => settingsRequester.request("settings/listModels", { ...(original ? { original } : {}), profile: form(), ...(refresh ? { refresh } : {}) }));

  if (loaded.state === "idle") {
    return (
      <button type="button" className="secondary ks-browse" data-testid="browse-models" onClick={() => load(false)}>
        {l10n.t("Browse models")}
      </button>
    );
  }
  return (
    <div className="ks-model-picker" data-testid="model-picker">
      <ModelList
        loaded={loaded}
        closeButton
        onRefresh={() => load(true)}
        onClose={reset}
        onPick={(id) => {
          onPick(id);
          reset();
        }}
      />
    </div>
  );
}
