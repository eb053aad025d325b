import type { z } from "zod";
import type { Clock } from "../clock.ts";
import type { GitRoot } from "../git/root.ts";
import { HttpError, notFound } from "../http-error.ts";
import type { Renderer } from "../render/core.ts";
import type { RouteReply, RouteRequest } from "../router.ts";
import type { Store } from "../state/store.ts";
import type { Issue, Pull, Repo, User, WorkflowRun } from "../state/types.ts";
import type { WebhookBus } from "../webhooks/bus.ts";

/** What every route module gets. */
export interface RouteContext {
  store: Store;
  render: Renderer;
  clock: Clock;
  bus: WebhookBus;
  /** Where repositories live on disk (forking clones one). */
  root?: GitRoot;
  /**
   * Whether a dispatch honours `return_run_details` (github.com since 2026-02-19); false plays
   * a GitHub Enterprise Server that answers every dispatch 204.
   */
  dispatchRunDetails?: boolean;
  /**
   * Whether `pulls/merge` refuses a PR whose head fails the base's ruleset-required checks,
   * as GitHub does. Off by default: scenarios written before it merge without CI reporting.
   */
  enforceRulesetsAtMerge?: boolean;
  /** Called after a workflow_dispatch created a run (the runner hooks in here). */
  onDispatch?: (run: WorkflowRun) => void;
  /** CI and the runner hook in here; only events not caused by a GITHUB_TOKEN reach them. */
  triggers?: Triggers;
  /** Set by the pulls module: announces a PR-backed issue's change as a `pull_request` event. */
  pullEvents?: (issue: Issue, action: string, sender: User, extra: Record<string, unknown>) => void;
}

export interface Triggers {
  push(repo: Repo, change: { branch: string; before: string; after: string }, sender: User): void;
  pullRequest(pull: Pull, action: string, sender: User): void;
}

/** Parses a request body with zod; a mismatch is GitHub's 422 "Invalid request". */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((i) => `For '${i.path.join("/") || "body"}', ${i.message}.`)
    .join("\n");
  throw new HttpError(422, `Invalid request.\n\n${detail}`);
}

export function intParam(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw notFound();
  return n;
}

export function repoOf(ctx: RouteContext, req: RouteRequest): Repo {
  return ctx.store.repoByName(req.params.owner ?? "", req.params.repo ?? "");
}

export function issueOf(ctx: RouteContext, req: RouteRequest, repo: Repo): Issue {
  return ctx.store.issueByNumber(
    repo.id,
    intParam(req.params.issue_number ?? req.params.pull_number),
  );
}

/** GitHub's page-based pagination (per_page ≤ 100, default 30) with a Link header. */
export function paginate<T>(
  items: T[],
  req: RouteRequest,
  selfUrl: string,
): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? 30) || 30));
  const page = Math.max(1, Number(req.query.get("page") ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (p: number, rel: string) => {
    const q = new URLSearchParams(req.query);
    q.set("per_page", String(perPage));
    q.set("page", String(p));
    return `<${selfUrl}?${q.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, "prev"), link(1, "first"));
  if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
  return { page: slice, headers: links.length > 0 ? { link: links.join(", ") } : {} };
}

/** One page of a list GitHub answers as a bare array, each item rendered, with its Link header. */
export function okPage<T>(
  items: T[],
  req: RouteRequest,
  selfUrl: string,
  renderItem: (item: T) => unknown,
): RouteReply {
  const { page, headers } = paginate(items, req, selfUrl);
  return ok(page.map(renderItem), 200, headers);
}

export function ok(body: unknown, status = 200, headers?: Record<string, string>): RouteReply {
  return headers ? { status, body, headers } : { status, body };
}
