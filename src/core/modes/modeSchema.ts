import { z } from "zod";

/**
 * What a custom mode may hold, as every mode file is checked: `.kilocodemodes`, `.roomodes`, the
 * global file and Kilo's agent files once turned into modes. A leaf module, so the readers of each
 * format share one set of rules without importing each other.
 */

export const GROUP_NAMES = ["read", "edit", "command", "browser", "mcp"] as const;

/** A slug as a mode file or an agent's file name may give it. */
export const MODE_SLUG = /^[a-zA-Z0-9][a-zA-Z0-9-]*$/;

const groupSchema = z.union([
  z.enum(GROUP_NAMES),
  z.tuple([
    z.enum(GROUP_NAMES),
    z
      .object({
        fileRegex: z
          .string()
          .refine((pattern) => {
            try {
              new RegExp(pattern);
              return true;
            } catch {
              return false;
            }
          }, "is not a valid regular expression")
          .optional(),
        description: z.string().optional(),
      })
      .strict(),
  ]),
]);

export const modeSchema = z
  .object({
    slug: z.string().regex(MODE_SLUG, "use letters, digits and dashes"),
    name: z.string().min(1),
    roleDefinition: z.string().min(1),
    whenToUse: z.string().optional(),
    description: z.string().optional(),
    customInstructions: z.string().optional(),
    groups: z.array(groupSchema),
    // Fields other tools write (e.g. source, iconName) are accepted and left alone.
  })
  .passthrough();
