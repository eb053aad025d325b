import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tstz } from "./columns.ts";

/** GitHub App installations. Ceilings live here so every goal of the account shares them. */
export const installations = pgTable("installations", {
  // GitHub's numeric installation id: stable across renames, so it is the key.
  id: bigint("id", { mode: "number" }).primaryKey(),
  accountLogin: text("account_login"),
  accountId: bigint("account_id", { mode: "number" }),
  accountType: text("account_type"),
  suspendedAt: tstz("suspended_at"),
  killSwitch: boolean("kill_switch").notNull().default(false),
  /** CostLimits for the whole installation (null: no ceiling). */
  spendCeiling: jsonb("spend_ceiling"),
  /** CostLimits applied to each repository of the installation (null: no ceiling). */
  repoSpendCeiling: jsonb("repo_spend_ceiling"),
  createdAt: tstz("created_at").notNull().defaultNow(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});

/**
 * One row per goal issue. Columns that are queried (the due sweep, lookups by issue,
 * allowances) are scalar; the rest of the kernel's Goal is jsonb, parsed back with zod.
 */
export const goals = pgTable(
  "goals",
  {
    id: uuid("id").primaryKey(),
    installationId: bigint("installation_id", { mode: "number" })
      .notNull()
      .references(() => installations.id),
    repoId: bigint("repo_id", { mode: "number" }).notNull(),
    repoOwnerId: bigint("repo_owner_id", { mode: "number" }).notNull(),
    repoOwner: text("repo_owner").notNull(),
    repoName: text("repo_name").notNull(),
    issueId: bigint("issue_id", { mode: "number" }).notNull(),
    issueNumber: integer("issue_number").notNull(),
    status: text("status").notNull(),
    statusReason: text("status_reason").notNull().default(""),
    harness: text("harness").notNull(),
    validationCommand: text("validation_command"),
    version: integer("version").notNull(),
    nextWakeAt: tstz("next_wake_at"),
    backoffLevel: integer("backoff_level").notNull().default(0),
    backoff: jsonb("backoff").notNull(),
    replanRequested: boolean("replan_requested").notNull().default(false),
    focus: text("focus"),
    objective: jsonb("objective").notNull(),
    owners: jsonb("owners").notNull(),
    budget: jsonb("budget").notNull(),
    tickCap: jsonb("tick_cap").notNull(),
    quota: jsonb("quota").notNull(),
    // Goals from before the policy existed ran their agents' plans at once, as `auto` does.
    plan: text("plan").notNull().default("auto"),
    // How many ticks may run at once; the claim and the due sweep compare live leases with it.
    parallel: integer("parallel").notNull().default(1),
    grantedScopes: jsonb("granted_scopes").notNull(),
    counters: jsonb("counters").notNull(),
    spent: jsonb("spent").notNull(),
    // Running outcome totals; the migration that added them counted them from the tables.
    outcomes: jsonb("outcomes").notNull().default({}),
    // The periodic digest's bookkeeping; its next look is a scalar for the scheduler's sweep.
    digest: jsonb("digest").notNull().default({}),
    digestDueAt: tstz("digest_due_at"),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    // One goal per issue: a second label event must find the first goal, not fork it.
    uniqueIndex("goals_repo_issue_uniq").on(t.repoId, t.issueNumber),
    // The due sweep: status = 'active' AND next_wake_at <= now().
    index("goals_due_idx").on(t.status, t.nextWakeAt),
    // The digest sweep: status = 'active' AND (digest_due_at IS NULL OR digest_due_at <= now()).
    index("goals_digest_due_idx").on(t.status, t.digestDueAt),
    index("goals_installation_idx").on(t.installationId),
    index("goals_repo_idx").on(t.repoId),
  ],
);
