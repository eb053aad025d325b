import { z } from "zod";
import { actor, requireRepoAccess, startsWorkflows } from "../auth.ts";
import { afterPush } from "../events/push.ts";
import { HttpError } from "../http-error.ts";
import type { Route } from "../router.ts";
import { closeIssue } from "../state/issue-ops.ts";
import { ok, parseBody, type RouteContext } from "./context.ts";
import { requireRulesetChecks } from "./merge-rules.ts";
import { pullState } from "./pulls.ts";

const mergeBody = z.object({
  commit_title: z.string().optional(),
  commit_message: z.string().optional(),
  sha: z.string().optional(),
  merge_method: z.enum(["merge", "squash", "rebase"]).optional(),
});

/** `PUT …/pulls/{n}/merge`: a real merge commit on the base branch, then what GitHub does after. */
export function mergeRoutes(ctx: RouteContext): Route[] {
  const { store, clock } = ctx;
  return [
    {
      method: "PUT",
      template: "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
      operationId: "pulls/merge",
      auth: "token",
      handle: (req) => {
        const { repo, pull, issue } = pullState(ctx, req);
        requireRepoAccess(req.principal, store, repo, "contents", "write");
        const body = parseBody(mergeBody, req.body);
        if (pull.merged || issue.state === "closed")
          throw new HttpError(405, "Pull Request is not mergeable");
        if (body.sha && body.sha !== pull.headSha) {
          throw new HttpError(409, "Head branch was modified. Review and try the merge again.");
        }
        requireRulesetChecks(ctx, repo, pull);
        // A real merge: git's merge of the head into the base branch's current head.
        const git = store.git(repo);
        const baseHead = repo.branches.get(pull.baseRef) ?? pull.baseSha;
        // Protection that requires up-to-date branches refuses a head without the base's tip.
        const strict = repo.protection.get(pull.baseRef)?.strict === true;
        if (strict && !git.isAncestor(baseHead, pull.headSha))
          throw new HttpError(405, "Head branch is not up to date with the base branch");
        const tree = pull.conflicting ? null : git.trialMerge(baseHead, pull.headSha);
        if (!tree) {
          pull.mergeable = false;
          throw new HttpError(405, "Pull Request is not mergeable");
        }
        const sender = actor(req.principal);
        const now = clock.now();
        const method = body.merge_method ?? "merge";
        const owner = store.user(store.repo(pull.headRepoId).ownerId).login;
        const title =
          body.commit_title ??
          (method === "merge"
            ? `Merge pull request #${pull.number} from ${owner}/${pull.headRef}`
            : `${issue.title} (#${pull.number})`);
        const message = body.commit_message ? `${title}\n\n${body.commit_message}` : title;
        const who = {
          name: sender.login,
          email: `${sender.id}+${sender.login}@users.noreply.github.com`,
          at: now,
        };
        // Squash and rebase both land one commit on the base here: the tree is what matters.
        const parents = method === "merge" ? [baseHead, pull.headSha] : [baseHead];
        const sha = git.commitTree(tree, parents, message, who, pull.baseRef, baseHead);
        pull.merged = true;
        pull.mergedAt = now;
        pull.mergedById = sender.id;
        pull.mergeCommitSha = sha;
        pull.mergeable = null;
        afterPush(
          ctx,
          repo,
          [{ branch: pull.baseRef, before: baseHead, after: sha }],
          sender,
          startsWorkflows(req.principal),
        );
        closeIssue(ctx, issue, sender);
        for (const number of pull.closesIssueNumbers) {
          const target = [...store.issues.values()].find(
            (i) => i.repoId === repo.id && i.number === number && !i.isPull,
          );
          if (target) closeIssue(ctx, target, sender, "completed");
        }
        return ok({ sha, merged: true, message: "Pull Request successfully merged" });
      },
    },
  ];
}
