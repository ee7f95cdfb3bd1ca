import * as l10n from "@vscode/l10n";
import { TARGET_SLOT } from "../../shared/toolView";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { markdown, said, view } from "./present";

export const switchModeTool = defineTool({
  name: "switch_mode",
  group: "always",
  description: "Switch to another mode when the work needs its tools or role (e.g. to code after planning in architect). The next request uses the new mode.",
  params: {
    mode_slug: p.string("Slug of the mode to switch to"),
    reason: p.string("Why the switch is needed", { optional: true }),
  },
  present(args, status) {
    return view(
      {
        icon: "arrow-swap",
        title: said(status, {
          wants: () => l10n.t("Kiln wants to switch to {0} mode", TARGET_SLOT),
          doing: () => l10n.t("Kiln is switching to {0} mode", TARGET_SLOT),
          did: () => l10n.t("Kiln switched to {0} mode", TARGET_SLOT),
          denied: () => l10n.t("Kiln was not allowed to switch to {0} mode", TARGET_SLOT),
          failed: () => l10n.t("Kiln could not switch to {0} mode", TARGET_SLOT),
        }),
        target: args.mode_slug,
      },
      markdown(args.reason),
    );
  },
  async execute(args, context) {
    const task = context.task;
    if (!task) return toolError("unavailable", "switching modes is not available here.");
    const slugs = task.modes().map((m) => m.slug);
    const target = task.modes().find((m) => m.slug === args.mode_slug);
    if (!target) return toolError("not_found", `there is no mode "${args.mode_slug}". Modes: ${slugs.join(", ")}.`);
    if (target.slug === task.mode().slug) return { kind: "result", text: `Already in ${target.name} mode.` };
    task.switchMode(target);
    return { kind: "result", text: `Switched to ${target.name} mode${args.reason ? ` (${args.reason})` : ""}. Its tools and role apply from now on.` };
  },
});
