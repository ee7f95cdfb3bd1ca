import * as l10n from "@vscode/l10n";
import { loadSkill, skillForModel } from "../skills/skills";
import { defineTool, toolError } from "./defineTool";
import { p } from "./params";
import { said, view } from "./present";
import { TARGET_SLOT } from "../../shared/toolView";

export const useSkillTool = defineTool({
  name: "use_skill",
  group: "always",
  description: "Load one of the skills listed under Skills: you get its instructions and the files in its folder, then follow them.",
  params: {
    name: p.string("The skill's name, as listed"),
  },
  present(args, status) {
    return view({
      icon: "book",
      title: said(status, {
        wants: () => l10n.t("Kiln wants to use the skill {0}", TARGET_SLOT),
        doing: () => l10n.t("Kiln is loading the skill {0}", TARGET_SLOT),
        did: () => l10n.t("Kiln loaded the skill {0}", TARGET_SLOT),
        denied: () => l10n.t("Kiln was not allowed to use the skill {0}", TARGET_SLOT),
        failed: () => l10n.t("Kiln could not load the skill {0}", TARGET_SLOT),
      }),
      target: args.name,
    });
  },
  async execute(args, context) {
    const skills = context.skills?.() ?? [];
    const name = args.name.trim().replace(/^\//, "");
    const skill = skills.find((s) => s.name === name);
    if (!skill) {
      const list = skills.length ? `Skills: ${skills.map((s) => s.name).join(", ")}.` : "There are no skills here.";
      return toolError("not_found", `there is no skill "${name}" (or the user turned it off). ${list}`);
    }
    try {
      return { kind: "result", text: skillForModel(loadSkill(skill)) };
    } catch (err) {
      return toolError("failed", `could not read the skill "${name}": ${err instanceof Error ? err.message : String(err)}`);
    }
  },
});
