/**
 * Read-only queries for the dashboard and the `loopx status` API: lists across goals and a
 * goal's full history (the aggregate keeps only a recent window). Nothing here writes.
 */
import { Actor, Cost } from "@loopx/core";
import { and, desc, eq, inArray, isNull, like, not, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

export interface GoalSummary {
  id: string;
  repo: string;
  issueNumber: number;
  title: string;
  status: string;
  statusReason: string;
  nextWakeAt: Date | null;
  spent: { usd: number; runnerMinutes: number; ticks: number };
  updatedAt: Date;
}

const Title = z.object({ title: z.string() });
const Spent = Cost.extend({ ticks: z.number().int().nonnegative() });

export async function goalVersion(
  db: Db,
  goalId: string,
): Promise<{ version: number; repo: string } | null> {
  const [row] = await db
    .select({ version: s.goals.version, owner: s.goals.repoOwner, name: s.goals.repoName })
    .from(s.goals)
    .where(eq(s.goals.id, goalId));
  return row ? { version: row.version, repo: `${row.owner}/${row.name}` } : null;
}

type GoalRow = typeof s.goals.$inferSelect;

function summaryOf(r: GoalRow): GoalSummary {
  const spent = Spent.parse(r.spent);
  return {
    id: r.id,
    repo: `${r.repoOwner}/${r.repoName}`,
    issueNumber: r.issueNumber,
    title: Title.parse(r.objective).title,
    status: r.status,
    statusReason: r.statusReason,
    nextWakeAt: r.nextWakeAt,
    spent: { usd: spent.usd, runnerMinutes: spent.runnerMinutes, ticks: spent.ticks },
    updatedAt: r.updatedAt,
  };
}

/**
 * Every goal still going (active or paused), however long untouched: one that has waited a
 * month for its owner is what the dashboard exists to show. Then the newest `finished` of the
 * ended ones. Newest first.
 */
export async function listGoalSummaries(db: Db, finished = 200): Promise<GoalSummary[]> {
  const going = inArray(s.goals.status, ["active", "paused"]);
  const [open, ended] = await Promise.all([
    db.select().from(s.goals).where(going),
    db.select().from(s.goals).where(not(going)).orderBy(desc(s.goals.updatedAt)).limit(finished),
  ]);
  return [...open, ...ended]
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
    .map(summaryOf);
}

export interface RepoActivity {
  repo: string;
  goals: number;
  lastUpdate: Date;
}

/** Per repository: how many goals, and when one last moved (the live overview's stamp). */
export async function repoActivity(db: Db): Promise<RepoActivity[]> {
  const rows = await db
    .select({
      owner: s.goals.repoOwner,
      name: s.goals.repoName,
      goals: sql<number>`count(*)::int`,
      lastUpdate: sql<Date>`max(${s.goals.updatedAt})`,
    })
    .from(s.goals)
    .groupBy(s.goals.repoOwner, s.goals.repoName)
    .orderBy(s.goals.repoOwner, s.goals.repoName);
  return rows.map((r) => ({
    repo: `${r.owner}/${r.name}`,
    goals: Number(r.goals),
    lastUpdate: new Date(r.lastUpdate),
  }));
}

/** One goal's summary, whatever its age or status. */
export async function goalSummary(db: Db, goalId: string): Promise<GoalSummary | null> {
  const [row] = await db.select().from(s.goals).where(eq(s.goals.id, goalId));
  return row ? summaryOf(row) : null;
}

export interface LiveLease {
  goalId: string;
  tick: number;
  todo: string;
  /** The tick slot (workflow concurrency group) it runs in; "" is a goal's one slot. */
  slot: string;
  /** The workflow run it runs in, when the tick said. */
  run: { id: number; attempt: number } | null;
  startedAt: Date;
  leaseExpiresAt: Date;
}

/** Ticks still open (a slice is running, or its lease has lapsed and awaits the sweep). */
export async function liveLeases(db: Db): Promise<LiveLease[]> {
  const rows = await db
    .select()
    .from(s.ticks)
    .where(isNull(s.ticks.finishedAt))
    .orderBy(s.ticks.startedAt);
  return rows.map((r) => ({
    goalId: r.goalId,
    tick: r.number,
    todo: r.todo,
    slot: r.slot,
    run: r.runId === null ? null : { id: r.runId, attempt: r.runAttempt ?? 1 },
    startedAt: r.startedAt,
    leaseExpiresAt: r.leaseExpiresAt,
  }));
}

export interface TickRecord {
  number: number;
  todo: string;
  startedAt: Date;
  finishedAt: Date | null;
  outcome: string | null;
  failure: string | null;
  cost: Cost | null;
}

/** Every tick of a goal, oldest first: the timeline and the cost chart. */
export async function goalTicks(db: Db, goalId: string): Promise<TickRecord[]> {
  const rows = await db
    .select()
    .from(s.ticks)
    .where(eq(s.ticks.goalId, goalId))
    .orderBy(s.ticks.number);
  return rows.map((r) => ({
    number: r.number,
    todo: r.todo,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    outcome: r.outcome,
    failure: r.failure,
    cost: r.cost === null ? null : Cost.parse(r.cost),
  }));
}

export interface GoalEvent {
  type: string;
  actor: Actor;
  at: Date;
  data: Record<string, unknown>;
}

const EventData = z.record(z.string(), z.unknown());

/** The most events `goalEvents` returns when not told: a page's worth, not a goal's life. */
export const GOAL_EVENTS_LIMIT = 500;

/**
 * A goal's newest `limit` events whose type starts with one of `typePrefixes`, oldest first
 * (the gate history: `gate.`). Filtered and cut in the database: a goal that ran for weeks
 * has hundreds of thousands of events, and a page wants a few of them.
 */
export async function goalEvents(
  db: Db,
  goalId: string,
  typePrefixes: string | readonly string[],
  limit = GOAL_EVENTS_LIMIT,
): Promise<GoalEvent[]> {
  const prefixes = typeof typePrefixes === "string" ? [typePrefixes] : [...typePrefixes];
  if (prefixes.length === 0) return [];
  const rows = await db
    .select()
    .from(s.events)
    .where(
      and(
        eq(s.events.goalId, goalId),
        or(...prefixes.map((p) => like(s.events.type, `${p.replace(/[\\%_]/g, "\\$&")}%`))),
      ),
    )
    .orderBy(desc(s.events.id))
    .limit(limit);
  return rows.reverse().map((r) => ({
    type: r.type,
    actor: Actor.parse(r.actor),
    at: r.at,
    data: EventData.parse(r.data),
  }));
}

/** The goal of one issue by repository name (the CLI and the API name goals as owner/repo#N). */
export async function goalIdByName(
  db: Db,
  owner: string,
  repo: string,
  issueNumber: number,
): Promise<string | null> {
  const [row] = await db
    .select({ id: s.goals.id })
    .from(s.goals)
    .where(
      and(
        eq(s.goals.repoOwner, owner),
        eq(s.goals.repoName, repo),
        eq(s.goals.issueNumber, issueNumber),
      ),
    );
  return row?.id ?? null;
}
