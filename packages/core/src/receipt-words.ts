import { z } from "zod";
import { ActLink, type Actor } from "./schemas/primitives.ts";

/** An event as the ledger keeps it: what happened, who did it, when, and its data. */
export interface LedgerEvent {
  type: string;
  actor: Actor;
  at: Date;
  data: Record<string, unknown>;
}

/** A receipt as people read it: one sentence, and the link to the act where one is known. */
export interface ReceiptLine {
  text: string;
  /** The comment, review or run that made the act (http(s) only). */
  link: string | null;
}

/**
 * The ledger's types that are people's acts or decisions about them: gates, the budget, the
 * checklist, accepting an agent's todo, claims. The dashboard lists these as receipts.
 */
export const RECEIPT_EVENT_TYPES = [
  "gate.opened",
  "gate.approved",
  "gate.rejected",
  "gate.reopened",
  "gate.expired",
  "goal.budget_changed",
  "todo.completed",
  "todo.reopened",
  "todo.accepted",
  "todo.claim_taken",
  "todo.claim_released",
] as const;

// Events store null for what did not apply (a gate on no todo): null reads as absent.
const Fields = z.object({
  gate: z.string().optional(),
  todo: z.string().nullable().optional(),
  scopes: z.array(z.string()).optional(),
  note: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
  head: z.string().nullable().optional(),
  pr: z.number().nullable().optional(),
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  holder: z.string().nullable().optional(),
  via: z.string().nullable().optional(),
  before: z.record(z.string(), z.number().nullable().optional()).optional(),
  after: z.record(z.string(), z.number().nullable().optional()).optional(),
  act: z.string().nullable().optional(),
});

/**
 * The receipt sentence for one ledger event: who, what, which head or value, and when, in
 * words; null for an event that is no act a person would look up (a lease renewed, a cost
 * charged). The raw data stays in the ledger for anyone who needs it.
 */
export function receiptWords(e: LedgerEvent): ReceiptLine | null {
  const parsed = Fields.safeParse(e.data);
  const f = parsed.success ? parsed.data : {};
  const who = actorWords(e.actor);
  const when = `at ${minuteUtc(e.at)}`;
  const link = actLinkOf(f.act);
  const scopes = f.scopes && f.scopes.length > 0 ? ` (${f.scopes.join(", ")})` : "";
  const said = (text: string | null | undefined) => (text ? `: ${text}` : "");
  const text = ((): string | null => {
    switch (e.type) {
      case "gate.opened":
        return `${who} opened ${f.gate}${scopes}${f.pr ? ` on #${f.pr}` : ""} ${when}`;
      case "gate.approved":
        return `${who} approved ${f.gate}${scopes}${f.head ? ` for head ${f.head.slice(0, 7)}` : ""} ${when}${said(f.note)}`;
      case "gate.rejected":
        return `${who} rejected ${f.gate}${scopes} ${when}${said(f.reason)}`;
      case "gate.reopened":
        return `${f.gate} reopened ${when}: #${f.pr} moved from ${short(f.from)} to ${short(f.to)}, so an approval of the old head no longer counts`;
      case "gate.expired":
        return `${f.gate} expired ${when}${said(f.reason)}`;
      case "goal.budget_changed":
        return `${who} changed the budget ${when}: ${budgetMoves(f.before ?? {}, f.after ?? {})}`;
      case "todo.completed":
        return e.actor.kind === "human" ? `${who} ticked ${f.todo} done ${when}` : null;
      case "todo.reopened":
        return e.actor.kind === "human" ? `${who} reopened ${f.todo} ${when}` : null;
      case "todo.accepted":
        return `${who} accepted ${f.todo} (proposed by an agent) ${when}: its text now instructs the slices`;
      case "todo.claim_taken":
        return `${plain(f.holder ?? undefined)} holds ${f.todo}${f.via === "assignment" ? " (assigned)" : ""} ${when}`;
      case "todo.claim_released":
        return `${plain(f.holder ?? undefined)} let go of ${f.todo} ${when}`;
      default:
        return null;
    }
  })();
  return text === null ? null : { text, link };
}

/** A URL GitHub gave for an act, if it is a web link: anything else is no link at all. */
export function actLinkOf(url: unknown): string | null {
  const r = ActLink.safeParse(url);
  return r.success ? r.data : null;
}

/** Who acted, without an @ (a receipt pings nobody). */
function actorWords(a: Actor): string {
  if (a.kind === "human") return a.login;
  if (a.kind === "agent") return "the agent";
  return "LoopX";
}

const plain = (login: string | undefined) => (login ?? "someone").replace(/^@/, "");
const short = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : "an unknown head");

/** "usd 0.6 → 2, ticks unlimited → 10": each limit that moved. */
function budgetMoves(
  before: Record<string, number | null | undefined>,
  after: Record<string, number | null | undefined>,
): string {
  const dims = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const moved = dims
    .filter((d) => (before[d] ?? null) !== (after[d] ?? null))
    .map((d) => `${d} ${before[d] ?? "unlimited"} → ${after[d] ?? "unlimited"}`);
  return moved.length > 0 ? moved.join(", ") : "no limit moved";
}

/** "2026-12-05 14:03 UTC": what a person reads, to the minute. */
export function minuteUtc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
