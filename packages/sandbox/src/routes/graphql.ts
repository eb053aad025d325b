import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { execute, type FieldDef, FieldError, type Schema } from "../graphql/execute.ts";
import { GraphqlSyntaxError, parseOperation } from "../graphql/parse.ts";
import { HttpError } from "../http-error.ts";
import { nodeId } from "../render/core.ts";
import { renderReviewComment, renderSimplePull } from "../render/pulls.ts";
import type { Route, RouteRequest } from "../router.ts";
import type { Pull, Repo, ReviewThread } from "../state/types.ts";
import { ok, type RouteContext } from "./context.ts";

const Body = z.object({
  query: z.string(),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  operationName: z.string().nullable().optional(),
});

const scalar = (resolve: (parent: never) => unknown): FieldDef => ({
  type: null,
  resolve: (parent) => resolve(parent as never),
});

/** `first` as GitHub demands it on a connection: given, and at most 100. */
function pageSize(connection: string, first: unknown): number {
  if (typeof first !== "number") {
    throw new FieldError(
      "MISSING_PAGINATION_BOUNDARIES",
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${connection}\` connection.`,
    );
  }
  if (first > 100) {
    throw new FieldError(
      "EXCESSIVE_PAGINATION",
      `Requesting ${first} records on the \`${connection}\` connection exceeds the \`first\` limit of 100 records.`,
    );
  }
  return Math.max(0, first);
}

function threadIdOf(global: unknown): number | null {
  if (typeof global !== "string" || !global.startsWith("PRRT_")) return null;
  const m = /^0:(\d+)$/.exec(Buffer.from(global.slice(5), "base64url").toString());
  return m ? Number(m[1]) : null;
}

/**
 * The GraphQL API, for what REST lacks: review threads and whether they are resolved
 * (`repository.pullRequest.reviewThreads`) and `resolveReviewThread`/`unresolveReviewThread`.
 * Other fields answer GitHub's validation errors.
 */
function schemaFor(ctx: RouteContext, req: RouteRequest): Schema {
  const { store } = ctx;
  const threadsOf = (pull: Pull) =>
    [...store.reviewThreads.values()]
      .filter((t) => t.repoId === pull.repoId && t.pullNumber === pull.number)
      .sort((a, b) => a.id - b.id);
  const setResolved = (resolved: boolean) => (_: unknown, args: Record<string, unknown>) => {
    const input = z.object({ threadId: z.string() }).safeParse(args.input);
    const id = input.success ? threadIdOf(input.data.threadId) : null;
    const thread = id === null ? undefined : store.reviewThreads.get(id);
    if (!thread) {
      const given = input.success ? input.data.threadId : "";
      throw new FieldError(
        "NOT_FOUND",
        `Could not resolve to a node with the global id of '${given}'`,
      );
    }
    const repo = store.repo(thread.repoId);
    const who = actor(req.principal);
    const author = store.issueByNumber(repo.id, thread.pullNumber).userId === who.id;
    try {
      requireRepoAccess(
        req.principal,
        store,
        repo,
        "pull_requests",
        "write",
        author ? "read" : "write",
      );
    } catch {
      throw new FieldError(
        "FORBIDDEN",
        `${who.login} does not have permission to ${resolved ? "resolve" : "unresolve"} review threads on this pull request.`,
      );
    }
    const changed = (thread.resolvedById !== null) !== resolved;
    thread.resolvedById = resolved ? who.id : null;
    if (changed) {
      const pull = store.pull(repo.id, thread.pullNumber);
      ctx.bus.emit("pull_request_review_thread", repo, who, {
        action: resolved ? "resolved" : "unresolved",
        thread: {
          node_id: nodeId("PRRT", thread.id),
          comments: [renderReviewComment(ctx.render, thread, "webhook")],
        },
        pull_request: renderSimplePull(ctx.render, pull, "webhook"),
      });
    }
    return { thread };
  };
  const connection = (node: string): Record<string, FieldDef> => ({
    nodes: { type: node, list: true, resolve: (c) => (c as { nodes: unknown[] }).nodes },
    totalCount: scalar((c: { total: number }) => c.total),
    pageInfo: { type: "PageInfo", resolve: (c) => c },
  });
  return {
    Query: {
      repository: {
        type: "Repository",
        args: { owner: { required: true }, name: { required: true } },
        resolve: (_, args) => {
          const missing = new FieldError(
            "NOT_FOUND",
            `Could not resolve to a Repository with the name '${String(args.owner)}/${String(args.name)}'.`,
          );
          let repo: Repo;
          try {
            repo = store.repoByName(String(args.owner), String(args.name));
            requireRepoAccess(req.principal, store, repo, "metadata", "read");
          } catch {
            throw missing;
          }
          return repo;
        },
      },
    },
    Mutation: {
      resolveReviewThread: {
        type: "ResolveReviewThreadPayload",
        args: { input: { required: true } },
        resolve: setResolved(true),
      },
      unresolveReviewThread: {
        type: "ResolveReviewThreadPayload",
        args: { input: { required: true } },
        resolve: setResolved(false),
      },
    },
    Repository: {
      nameWithOwner: scalar((r: Repo) => store.fullName(r)),
      pullRequest: {
        type: "PullRequest",
        args: { number: { required: true } },
        resolve: (repo, args) => {
          const pull = store.pulls.get(`${(repo as Repo).id}#${String(args.number)}`);
          if (!pull) {
            throw new FieldError(
              "NOT_FOUND",
              `Could not resolve to a PullRequest with the number of ${String(args.number)}.`,
            );
          }
          return pull;
        },
      },
    },
    PullRequest: {
      number: scalar((p: Pull) => p.number),
      reviewThreads: {
        type: "PullRequestReviewThreadConnection",
        args: { first: {}, after: {} },
        resolve: (pull, args) => {
          const size = pageSize("reviewThreads", args.first);
          const all = threadsOf(pull as Pull);
          const from = typeof args.after === "string" ? Number(args.after) || 0 : 0;
          const nodes = all.slice(from, from + size);
          return { nodes, total: all.length, end: from + nodes.length };
        },
      },
    },
    PullRequestReviewThreadConnection: connection("PullRequestReviewThread"),
    PullRequestReviewCommentConnection: connection("PullRequestReviewComment"),
    PageInfo: {
      hasNextPage: scalar((c: { end: number; total: number }) => c.end < c.total),
      endCursor: scalar((c: { end: number }) => (c.end > 0 ? String(c.end) : null)),
    },
    PullRequestReviewThread: {
      id: scalar((t: ReviewThread) => nodeId("PRRT", t.id)),
      isResolved: scalar((t: ReviewThread) => t.resolvedById !== null),
      path: scalar((t: ReviewThread) => t.path),
      line: scalar((t: ReviewThread) => t.line),
      comments: {
        type: "PullRequestReviewCommentConnection",
        args: { first: {} },
        resolve: (t, args) => {
          // Replies are not modelled: a thread is its first comment.
          const size = pageSize("comments", args.first);
          return { nodes: size > 0 ? [t] : [], total: 1, end: Math.min(1, size) };
        },
      },
    },
    PullRequestReviewComment: {
      id: scalar((t: ReviewThread) => nodeId("PRRC", t.commentId)),
      databaseId: scalar((t: ReviewThread) => t.commentId),
      body: scalar((t: ReviewThread) => t.body),
      pullRequestReview: {
        type: "PullRequestReview",
        resolve: (t) => store.reviews.get((t as ReviewThread).reviewId) ?? null,
      },
    },
    PullRequestReview: {
      id: scalar((r: { id: number }) => nodeId("PRR", r.id)),
      databaseId: scalar((r: { id: number }) => r.id),
    },
    ResolveReviewThreadPayload: {
      thread: {
        type: "PullRequestReviewThread",
        resolve: (p) => (p as { thread: unknown }).thread,
      },
      clientMutationId: scalar(() => null),
    },
  };
}

export function graphqlRoutes(ctx: RouteContext): Route[] {
  return [
    {
      method: "POST",
      template: "/graphql",
      operationId: "graphql",
      auth: "token",
      handle: (req) => {
        const body = Body.safeParse(req.body);
        if (!body.success) throw new HttpError(400, "Problems parsing JSON");
        let op: ReturnType<typeof parseOperation>;
        try {
          op = parseOperation(body.data.query);
        } catch (error) {
          if (!(error instanceof GraphqlSyntaxError)) throw error;
          return ok({
            errors: [
              {
                message: error.message,
                locations: [{ line: error.line, column: error.column }],
              },
            ],
          });
        }
        return ok(execute(schemaFor(ctx, req), op, body.data.variables ?? {}));
      },
    },
  ];
}
