import { z } from "zod";

/**
 * The parts every webhook payload LoopX reads shares, parsed once at the edge. Objects are
 * loose: GitHub adds fields all the time, and only what is named here is trusted to exist.
 */
export const Account = z.object({ login: z.string(), id: z.number(), type: z.string() });
export type Account = z.infer<typeof Account>;

export const Repository = z.object({
  id: z.number(),
  name: z.string(),
  full_name: z.string(),
  owner: z.object({ login: z.string(), id: z.number() }),
  default_branch: z.string().optional(),
  archived: z.boolean().optional(),
});
export type Repository = z.infer<typeof Repository>;

export const Installation = z.object({ id: z.number() });

export const Issue = z.object({
  id: z.number(),
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  state: z.enum(["open", "closed"]),
  state_reason: z.string().nullable().optional(),
  user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
  labels: z.array(z.object({ name: z.string() })).optional(),
  pull_request: z.unknown().optional(),
});
export type Issue = z.infer<typeof Issue>;

/** Who sent a delivery, about which repository, for which installation. */
export const envelope = {
  installation: Installation,
  repository: Repository,
  sender: Account,
};

/** What every delivery must carry for LoopX to route it; others are recorded and ignored. */
export const Routable = z.object({
  action: z.string().optional(),
  installation: Installation.optional(),
});
