import { z } from "zod";
import { actor, requireRepoAccess } from "../auth.ts";
import { HttpError, notFound } from "../http-error.ts";
import { renderReview, renderReviewComment, renderSimplePull } from "../render/pulls.ts";
import type { Route } from "../router.ts";
import { changedPaths } from "../state/pull-ops.ts";
import type { Pull, Review, ReviewState, ReviewThread, User } from "../state/types.ts";
import { intParam, ok, okPage, parseBody, type RouteContext } from "./context.ts";
import { pullState } from "./pulls.ts";

const EVENTS = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
} as const;
const createReview = z.object({
  commit_id: z.string().optional(),
  body: z.string().optional(),
  event: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]).optional(),
  /** Line comments: each starts a review thread (resolved through GraphQL). */
  comments: z
    .array(
      z.object({
        path: z.string(),
        body: z.string(),
        line: z.number().int().positive().optional(),
        position: z.number().int().positive().optional(),
        side: z.enum(["LEFT", "RIGHT"]).optional(),
      }),
    )
    .optional(),
});
const submitReview = z.object({
  body: z.string().optional(),
  event: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]),
});

export function reviewRoutes(ctx: RouteContext): Route[] {
  const { store, render, clock, bus } = ctx;
  const submit = (
    pull: Pull,
    review: Review,
    state: ReviewState,
    sender: User,
    authorId: number,
  ) => {
    if (state === "APPROVED" && review.userId === authorId) {
      throw new HttpError(422, "Unprocessable Entity", {
        errors: [{ message: "Can not approve your own pull request" }],
      });
    }
    if (
      (state === "CHANGES_REQUESTED" || state === "COMMENTED") &&
      !review.body &&
      state !== "COMMENTED"
    ) {
      throw new HttpError(422, "Unprocessable Entity", {
        errors: [{ message: "Body is required for a request for changes" }],
      });
    }
    review.state = state;
    review.submittedAt = clock.now();
    pull.requestedReviewerIds = pull.requestedReviewerIds.filter((id) => id !== review.userId);
    bus.emit("pull_request_review", store.repo(pull.repoId), sender, {
      action: "submitted",
      review: renderReview(render, review, "webhook"),
      pull_request: renderSimplePull(render, pull, "webhook"),
    });
  };
  return [
    {
      method: "GET",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      operationId: "pulls/list-reviews",
      auth: "public",
      handle: (req) => {
        const { repo, pull } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "read");
        const viewer =
          req.principal.kind === "anonymous" || req.principal.kind === "app"
            ? null
            : actor(req.principal).id;
        const all = [...store.reviews.values()]
          .filter((r) => r.repoId === repo.id && r.pullNumber === pull.number)
          .filter((r) => r.state !== "PENDING" || r.userId === viewer)
          .sort((a, b) => a.id - b.id);
        return okPage(all, req, `${render.repoUrl(repo)}/pulls/${pull.number}/reviews`, (r) =>
          renderReview(render, r),
        );
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      operationId: "pulls/create-review",
      auth: "token",
      contentCreating: true,
      handle: (req) => {
        const { repo, pull, issue } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "write", "read");
        const body = parseBody(createReview, req.body);
        const sender = actor(req.principal);
        const review: Review = {
          id: store.id(),
          repoId: repo.id,
          pullNumber: pull.number,
          userId: sender.id,
          body: body.body ?? "",
          state: "PENDING",
          commitId: body.commit_id ?? pull.headSha,
          submittedAt: null,
        };
        const paths = body.comments?.length ? changedPaths(store, repo, pull) : [];
        for (const c of body.comments ?? []) {
          if (!paths.includes(c.path))
            throw new HttpError(422, "Unprocessable Entity", {
              errors: [{ message: "Path could not be resolved" }],
            });
        }
        if (body.event) submit(pull, review, EVENTS[body.event], sender, issue.userId);
        store.reviews.set(review.id, review);
        for (const c of body.comments ?? []) {
          const thread: ReviewThread = {
            id: store.id(),
            repoId: repo.id,
            pullNumber: pull.number,
            reviewId: review.id,
            commentId: store.id(),
            userId: sender.id,
            body: c.body,
            path: c.path,
            line: c.line ?? c.position ?? 1,
            commitId: review.commitId,
            createdAt: clock.now(),
            resolvedById: null,
          };
          store.reviewThreads.set(thread.id, thread);
          // A submitted review's line comments are announced one by one, as GitHub does.
          if (review.state !== "PENDING")
            bus.emit("pull_request_review_comment", repo, sender, {
              action: "created",
              comment: renderReviewComment(render, thread, "webhook"),
              pull_request: renderSimplePull(render, pull, "webhook"),
            });
        }
        return ok(renderReview(render, review));
      },
    },
    {
      method: "POST",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events",
      operationId: "pulls/submit-review",
      auth: "token",
      handle: (req) => {
        const { repo, pull, issue } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "pull_requests", "write", "read");
        const review = store.reviews.get(intParam(req.params.review_id));
        const sender = actor(req.principal);
        if (
          !review ||
          review.pullNumber !== pull.number ||
          review.repoId !== repo.id ||
          review.userId !== sender.id
        )
          throw notFound();
        if (review.state !== "PENDING")
          throw new HttpError(422, "Unprocessable Entity", {
            errors: [{ message: "Can not submit a review that is not pending" }],
          });
        const body = parseBody(submitReview, req.body);
        if (body.body !== undefined) review.body = body.body;
        submit(pull, review, EVENTS[body.event], sender, issue.userId);
        return ok(renderReview(render, review));
      },
    },
  ];
}
