import type { CommitInfo } from "../git/git.ts";
import type { CommitStatus, Repo } from "../state/types.ts";
import { type Flavor, iso, type Json, nodeId, type Renderer } from "./core.ts";

/** A commit as `GET /repos/{o}/{r}/commits/{ref}` (and the `status` webhook) shows it. */
export function commitJson(render: Renderer, repo: Repo, c: CommitInfo, flavor: Flavor = "rest") {
  const { store } = render;
  const url = `${render.repoUrl(repo)}/commits/${c.sha}`;
  const html = `${render.repoHtml(repo)}/commit/${c.sha}`;
  const gitUser = (p: CommitInfo["author"]) => ({
    name: p.name,
    email: p.email,
    date: new Date(p.date).toISOString().replace(".000Z", "Z"),
  });
  const login = (email: string) => {
    const m = /^\d+\+(.+)@users\.noreply\.github\.com$/.exec(email);
    const user = m?.[1] ? store.userByLogin(m[1]) : undefined;
    return user ? render.user(user, flavor) : null;
  };
  return {
    url,
    sha: c.sha,
    node_id: nodeId("C", Number.parseInt(c.sha.slice(0, 8), 16)),
    html_url: html,
    comments_url: `${url}/comments`,
    commit: {
      url: `${render.repoUrl(repo)}/git/commits/${c.sha}`,
      author: gitUser(c.author),
      committer: gitUser(c.committer),
      message: c.message,
      comment_count: 0,
      tree: { sha: c.tree, url: `${render.repoUrl(repo)}/git/trees/${c.tree}` },
      // The webhook schema forbids `verified_at` (a newer REST-only field).
      verification: {
        verified: false,
        reason: "unsigned",
        signature: null,
        payload: null,
        ...(flavor === "rest" ? { verified_at: null } : {}),
      },
    },
    author: login(c.author.email),
    committer: login(c.committer.email),
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${render.repoUrl(repo)}/commits/${p}`,
      html_url: `${render.repoHtml(repo)}/commit/${p}`,
    })),
  };
}

/** One commit status: the `status` shape (`simple: true` drops `creator`, as combined lists do). */
export function renderStatus(render: Renderer, status: CommitStatus, simple = false): Json {
  const repo = render.store.repo(status.repoId);
  const creator = render.userById(status.creatorId);
  const out: Json = {
    url: `${render.repoUrl(repo)}/statuses/${status.sha}`,
    avatar_url: creator.avatar_url,
    id: status.id,
    node_id: nodeId("SC", status.id),
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: iso(status.createdAt),
    updated_at: iso(status.updatedAt),
  };
  if (!simple) out.creator = creator;
  return out;
}
