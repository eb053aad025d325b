import { isoSeconds } from "../clock.ts";
import type { Store } from "../state/store.ts";
import type { AppRecord, Installation, Label, Reaction, Repo, User } from "../state/types.ts";
import { REACTIONS } from "../state/types.ts";

/** REST responses and webhook payloads differ slightly; webhook schemas forbid extra keys. */
export type Flavor = "rest" | "webhook";

export type Json = Record<string, unknown>;

export function nodeId(prefix: string, id: number): string {
  return `${prefix}_${Buffer.from(`0:${id}`).toString("base64url")}`;
}

export const iso = isoSeconds;
export const isoOrNull = (ms: number | null) => (ms === null ? null : isoSeconds(ms));

/** Renders state into GitHub's JSON shapes, with URLs under this sandbox. */
export class Renderer {
  constructor(
    readonly store: Store,
    /** REST base, e.g. http://127.0.0.1:PORT (GitHub: https://api.github.com). */
    readonly api: string,
    /** Web base, e.g. http://127.0.0.1:PORT/_html (GitHub: https://github.com). */
    readonly web: string,
  ) {}

  user(user: User, flavor: Flavor = "rest"): Json {
    const url = `${this.api}/users/${encodeURIComponent(user.login)}`;
    const out: Json = {
      login: user.login,
      id: user.id,
      node_id: nodeId(
        user.type === "Bot" ? "BOT" : user.type === "Organization" ? "O" : "U",
        user.id,
      ),
      avatar_url: `${this.web}/avatars/u/${user.id}?v=4`,
      gravatar_id: "",
      url,
      html_url:
        user.type === "Bot"
          ? `${this.web}/apps/${user.login.replace("[bot]", "")}`
          : `${this.web}/${user.login}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: user.type,
      site_admin: false,
    };
    if (flavor === "rest") out.user_view_type = "public";
    return out;
  }

  userById(id: number, flavor: Flavor = "rest"): Json {
    return this.user(this.store.user(id), flavor);
  }

  label(repo: Repo, label: Label): Json {
    return {
      id: label.id,
      node_id: nodeId("LA", label.id),
      url: `${this.repoUrl(repo)}/labels/${encodeURIComponent(label.name)}`,
      name: label.name,
      color: label.color,
      default: label.isDefault,
      description: label.description,
    };
  }

  reactions(url: string, reactions: Reaction[]): Json {
    const out: Json = { url: `${url}/reactions`, total_count: reactions.length };
    for (const content of REACTIONS)
      out[content] = reactions.filter((r) => r.content === content).length;
    return out;
  }

  repoUrl(repo: Repo): string {
    return `${this.api}/repos/${this.store.fullName(repo)}`;
  }

  repoHtml(repo: Repo): string {
    return `${this.web}/${this.store.fullName(repo)}`;
  }

  authorAssociation(repo: Repo, userId: number): string {
    if (repo.ownerId === userId) return "OWNER";
    if (repo.collaborators.has(userId)) return "COLLABORATOR";
    return "NONE";
  }

  /** The slim repository object workflow_run payloads carry. */
  repoLite(repo: Repo): Json {
    const full = this.repo(repo, "webhook");
    const keep = [
      "id",
      "node_id",
      "name",
      "full_name",
      "private",
      "owner",
      "html_url",
      "description",
      "fork",
      "url",
    ];
    for (const key of Object.keys(full)) {
      if (!keep.includes(key) && !key.endsWith("_url")) delete full[key];
    }
    for (const key of ["clone_url", "git_url", "ssh_url", "svn_url", "mirror_url"])
      delete full[key];
    return full;
  }

  repo(repo: Repo, flavor: Flavor = "rest"): Json {
    const full = this.store.fullName(repo);
    const url = this.repoUrl(repo);
    const openIssues = this.store.issuesOf(repo.id).filter((i) => i.state === "open").length;
    const forks = [...this.store.repos.values()].filter((r) => r.forkOfId === repo.id).length;
    const owner = this.store.user(repo.ownerId);
    const out: Json = {
      id: repo.id,
      node_id: nodeId("R", repo.id),
      name: repo.name,
      full_name: full,
      private: repo.private,
      owner: this.user(owner, flavor),
      html_url: this.repoHtml(repo),
      description: repo.description,
      fork: repo.forkOfId !== null,
      url,
      forks_url: `${url}/forks`,
      keys_url: `${url}/keys{/key_id}`,
      collaborators_url: `${url}/collaborators{/collaborator}`,
      teams_url: `${url}/teams`,
      hooks_url: `${url}/hooks`,
      issue_events_url: `${url}/issues/events{/number}`,
      events_url: `${url}/events`,
      assignees_url: `${url}/assignees{/user}`,
      branches_url: `${url}/branches{/branch}`,
      tags_url: `${url}/tags`,
      blobs_url: `${url}/git/blobs{/sha}`,
      git_tags_url: `${url}/git/tags{/sha}`,
      git_refs_url: `${url}/git/refs{/sha}`,
      trees_url: `${url}/git/trees{/sha}`,
      statuses_url: `${url}/statuses/{sha}`,
      languages_url: `${url}/languages`,
      stargazers_url: `${url}/stargazers`,
      contributors_url: `${url}/contributors`,
      subscribers_url: `${url}/subscribers`,
      subscription_url: `${url}/subscription`,
      commits_url: `${url}/commits{/sha}`,
      git_commits_url: `${url}/git/commits{/sha}`,
      comments_url: `${url}/comments{/number}`,
      issue_comment_url: `${url}/issues/comments{/number}`,
      contents_url: `${url}/contents/{+path}`,
      compare_url: `${url}/compare/{base}...{head}`,
      merges_url: `${url}/merges`,
      archive_url: `${url}/{archive_format}{/ref}`,
      downloads_url: `${url}/downloads`,
      issues_url: `${url}/issues{/number}`,
      pulls_url: `${url}/pulls{/number}`,
      milestones_url: `${url}/milestones{/number}`,
      notifications_url: `${url}/notifications{?since,all,participating}`,
      labels_url: `${url}/labels{/name}`,
      releases_url: `${url}/releases{/id}`,
      deployments_url: `${url}/deployments`,
      created_at: iso(repo.createdAt),
      updated_at: iso(repo.updatedAt),
      pushed_at: iso(repo.pushedAt),
      git_url: `${this.api.replace(/^http/, "git")}/${full}.git`,
      ssh_url: `git@sandbox.invalid:${full}.git`,
      // git smart HTTP is served at the root, github.com-style: <sandbox>/<owner>/<repo>.git
      clone_url: `${this.api}/${full}.git`,
      svn_url: this.repoHtml(repo),
      homepage: null,
      size: 1,
      stargazers_count: 0,
      watchers_count: 0,
      language: "TypeScript",
      has_issues: true,
      has_projects: true,
      has_downloads: true,
      has_wiki: true,
      has_pages: false,
      has_discussions: false,
      forks_count: forks,
      mirror_url: null,
      archived: false,
      disabled: false,
      open_issues_count: openIssues,
      license: null,
      allow_forking: true,
      is_template: false,
      web_commit_signoff_required: false,
      topics: [],
      visibility: repo.private ? "private" : "public",
      forks,
      open_issues: openIssues,
      watchers: 0,
      default_branch: repo.defaultBranch,
    };
    if (flavor === "webhook") {
      out.custom_properties = {};
    } else {
      out.network_count = 0;
      out.subscribers_count = 0;
      out.allow_squash_merge = true;
      out.allow_merge_commit = true;
      out.allow_rebase_merge = true;
      out.allow_auto_merge = false;
      out.delete_branch_on_merge = false;
      if (repo.forkOfId !== null) {
        // A fork names its parent and the root of its network (the same here: one level).
        const parent = this.store.repo(repo.forkOfId);
        out.parent = this.repo(parent);
        out.source = this.repo(parent);
      }
    }
    return out;
  }

  app(app: AppRecord, flavor: Flavor = "rest"): Json {
    const out: Json = {
      id: app.id,
      slug: app.slug,
      node_id: nodeId("A", app.id),
      owner: this.userById(app.ownerId, flavor),
      name: app.name,
      description: app.description ?? `${app.name} (sandbox)`,
      external_url: app.externalUrl ?? `${this.web}/apps/${app.slug}`,
      html_url: `${this.web}/apps/${app.slug}`,
      created_at: iso(app.createdAt),
      updated_at: iso(app.createdAt),
      permissions: { ...app.permissions },
      events: [...app.events],
    };
    if (flavor === "rest") {
      out.client_id = app.clientId;
      out.installations_count = [...this.store.installations.values()].filter(
        (i) => i.appId === app.id,
      ).length;
    }
    return out;
  }

  installationLite(installation: Installation): Json {
    return { id: installation.id, node_id: nodeId("MDIz", installation.id) };
  }

  installation(installation: Installation, flavor: Flavor = "rest"): Json {
    const app = this.store.apps.get(installation.appId);
    const account = this.store.user(installation.accountId);
    const accountJson = this.user(account, flavor);
    if (flavor === "rest") {
      // The list endpoint's schema wants the account's name, slug and timestamps too.
      Object.assign(accountJson, {
        name: account.name ?? account.login,
        slug: account.login.toLowerCase(),
        created_at: iso(installation.createdAt),
        updated_at: iso(installation.createdAt),
      });
    }
    return {
      id: installation.id,
      account: accountJson,
      repository_selection: "selected",
      access_tokens_url: `${this.api}/app/installations/${installation.id}/access_tokens`,
      repositories_url: `${this.api}/installation/repositories`,
      html_url: `${this.web}/settings/installations/${installation.id}`,
      app_id: installation.appId,
      app_slug: app?.slug ?? "app",
      target_id: account.id,
      target_type: account.type === "Organization" ? "Organization" : "User",
      permissions: { ...installation.permissions },
      events: [...installation.events],
      created_at: iso(installation.createdAt),
      updated_at: iso(installation.createdAt),
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    };
  }
}
