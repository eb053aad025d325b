import { z } from "zod";

import { Account, envelope } from "../webhooks/envelope.ts";

/** Installations and repositories changing under LoopX. */
export const InstallationEvent = z.object({
  action: z.string(),
  installation: z.object({
    id: z.number(),
    account: z.object({ login: z.string(), id: z.number() }).nullable().optional(),
  }),
  sender: Account,
  repositories: z.array(z.object({ id: z.number(), full_name: z.string() })).optional(),
  repositories_removed: z.array(z.object({ id: z.number(), full_name: z.string() })).optional(),
});
export type InstallationEvent = z.infer<typeof InstallationEvent>;

export const RepositoryEvent = z.object({
  ...envelope,
  action: z.string(),
});
export type RepositoryEvent = z.infer<typeof RepositoryEvent>;
