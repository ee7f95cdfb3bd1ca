import type { ModeInput } from "../modes/modeFileEdits";
import type { Mode } from "../modes/modes";
import type { PlannedMode } from "./types";

/** A mode read from a source, as the import adds it to Kiln's modes file (fields Kiln does not keep left out). */
export function plannedMode(mode: Mode, from: string): PlannedMode {
  const input: ModeInput = {
    slug: mode.slug,
    name: mode.name,
    roleDefinition: mode.roleDefinition,
    ...(mode.whenToUse !== undefined && { whenToUse: mode.whenToUse }),
    ...(mode.description !== undefined && { description: mode.description }),
    ...(mode.customInstructions !== undefined && { customInstructions: mode.customInstructions }),
    groups: mode.groups,
  };
  return { slug: mode.slug, input, from };
}
