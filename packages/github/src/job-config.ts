import { z } from "zod";

// Like loopx-config.ts: no refinements (the editor schema must say everything checked), and
// strict objects, so a typo in a job's definition is an error with a path.

const description = z.string().max(500).optional().describe("What the input means.");
const required = z.boolean().default(false).describe("Whether the slice must give it.");

/** One named input of a job, as `workflow_dispatch` inputs are typed. */
export const JobInputSpec = z
  .discriminatedUnion("type", [
    z.strictObject({ type: z.literal("string"), required, description }),
    z.strictObject({ type: z.literal("boolean"), required, description }),
    z.strictObject({ type: z.literal("number"), required, description }),
    z.strictObject({
      type: z.literal("choice"),
      required,
      description,
      options: z
        .array(z.string().min(1).max(100))
        .min(1)
        .max(50)
        .describe("The values the input may take."),
    }),
  ])
  .describe("An input: { type: string | boolean | number | choice, required, options }.");
export type JobInputSpec = z.infer<typeof JobInputSpec>;

export const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;

/** A workflow a slice may hand work to instead of waiting for it inside its own run. */
export const JobSpec = z
  .strictObject({
    /** File name in `.github/workflows/`; it must have a `workflow_dispatch` trigger. */
    workflow: z
      .string()
      .regex(/^[A-Za-z0-9._-]+\.ya?ml$/, "a workflow file name such as long-tests.yml")
      .describe("File name in .github/workflows/ with a workflow_dispatch trigger."),
    description: z.string().max(500).optional().describe("What the job does, for the agent."),
    /** The inputs a slice may pass; nothing else is sent. */
    inputs: z
      .record(z.string().regex(INPUT_NAME, "an input name such as suite"), JobInputSpec)
      .default({})
      .describe("The inputs a slice may pass, by name."),
  })
  .describe("A job: { workflow: file.yml, inputs: { name: { type, required, options } } }.");
export type JobSpec = z.infer<typeof JobSpec>;

/** `jobs:` of `.github/loopx.yml`: job name → its workflow and input schema (unset: none). */
export const JobsConfig = z
  .record(z.string().regex(JOB_NAME, "a job name such as long-tests"), JobSpec)
  .optional()
  .describe(
    "Workflows a slice may dispatch on its todo's branch and wait for without spending: name -> { workflow, inputs }.",
  );
export type JobsConfig = NonNullable<z.infer<typeof JobsConfig>>;
