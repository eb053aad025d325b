/**
 * The CLI's inputs as files on disk: the skill and the read-tools snapshot. Parsed once here,
 * at the edge, so the policy only ever sees validated data.
 */
import { z } from "zod";
import { PROFILES, type Skill } from "./agent-types.ts";
import { unsafePath } from "./tree-paths.ts";

const RelPath = z.string().refine((p) => unsafePath(p) === null, {
  error: (issue) =>
    `${JSON.stringify(issue.input)} is not a path inside the checkout (${unsafePath(String(issue.input))})`,
});
const Files = z.record(RelPath, z.string());

const SkillTodoSchema = z.object({
  title: z.string().trim().min(1, "a todo needs a title"),
  slices: z.number().int().min(1, "a todo takes at least one slice"),
  files: Files,
  reviewFixes: z.array(Files).default([]),
  before: Files.optional(),
});

export const SkillSchema = z.object({
  plan: z.array(SkillTodoSchema).min(1, "a skill needs at least one planned todo"),
  discoveries: z
    .array(z.object({ afterTitle: z.string().min(1), todo: SkillTodoSchema, why: z.string() }))
    .default([]),
  notesPath: RelPath.optional(),
}) satisfies z.ZodType<Skill, unknown>;

export const ToolsSnapshot = z.object({
  issueComments: z.array(z.object({ author: z.string(), body: z.string() })).default([]),
  pull: z
    .object({
      number: z.number().int(),
      checks: z
        .array(
          z.object({ name: z.string(), conclusion: z.string(), summary: z.string().default("") }),
        )
        .default([]),
      reviews: z
        .array(
          z.object({
            author: z.string(),
            state: z.enum(["approved", "changes_requested", "commented"]),
            body: z.string().default(""),
          }),
        )
        .default([]),
    })
    .nullable()
    .default(null),
});
export type ToolsSnapshot = z.infer<typeof ToolsSnapshot>;

/** What the CLI reads of LoopX's brief file ($LOOPX_BRIEF) to find its issue and branch. */
export const BriefTarget = z.object({
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "is owner/name"),
  issue: z.number().int().positive(),
  branch: z.string().min(1),
});

export const ProfileSchema = z.enum(PROFILES);

export const SeedSchema = z.coerce.number().int("AGENT_SEED must be an integer");
