import { createHash } from "node:crypto";
import { GitRepo } from "../git/git.ts";
import { notFound } from "../http-error.ts";
import type {
  AppRecord,
  CheckRun,
  CheckSuite,
  Comment,
  CommitStatus,
  Installation,
  Issue,
  Pull,
  Repo,
  Review,
  ReviewThread,
  Role,
  Token,
  User,
  Workflow,
  WorkflowJob,
  WorkflowRun,
} from "./types.ts";

/** All sandbox state, in memory. Routes and the inspection API read and write it directly. */
export class Store {
  private nextId = 1_000_000;
  readonly users = new Map<number, User>();
  readonly apps = new Map<number, AppRecord>();
  readonly installations = new Map<number, Installation>();
  readonly tokens = new Map<string, Token>();
  readonly repos = new Map<number, Repo>();
  readonly issues = new Map<number, Issue>();
  readonly comments = new Map<number, Comment>();
  readonly pulls = new Map<string, Pull>();
  readonly reviews = new Map<number, Review>();
  readonly reviewThreads = new Map<number, ReviewThread>();
  readonly statuses = new Map<number, CommitStatus>();
  readonly checkSuites = new Map<number, CheckSuite>();
  readonly checkRuns = new Map<number, CheckRun>();
  readonly workflows = new Map<number, Workflow>();
  readonly workflowRuns = new Map<number, WorkflowRun>();
  readonly workflowJobs = new Map<number, WorkflowJob>();
  private readonly gits = new Map<number, GitRepo>();

  /** The repository's git store (one object per repository, so its diff cache is shared). */
  git(repo: Repo): GitRepo {
    let git = this.gits.get(repo.id);
    if (!git) {
      git = new GitRepo(repo.gitDir);
      this.gits.set(repo.id, git);
    }
    return git;
  }

  id(): number {
    this.nextId += 1 + Math.floor(Math.random() * 7);
    return this.nextId;
  }

  /** A deterministic-looking 40-hex sha for synthetic commits. */
  sha(seed: string): string {
    return createHash("sha1").update(`${seed}:${this.id()}`).digest("hex");
  }

  user(id: number): User {
    const user = this.users.get(id);
    if (!user) throw new Error(`sandbox: no user ${id}`);
    return user;
  }

  userByLogin(login: string): User | undefined {
    const lower = login.toLowerCase();
    for (const user of this.users.values()) if (user.login.toLowerCase() === lower) return user;
    return undefined;
  }

  repo(id: number): Repo {
    const repo = this.repos.get(id);
    if (!repo) throw new Error(`sandbox: no repository ${id}`);
    return repo;
  }

  fullName(repo: Repo): string {
    return `${this.user(repo.ownerId).login}/${repo.name}`;
  }

  /** Looks a repository up by owner and name, as the URL gives them; 404 if absent. */
  repoByName(owner: string, name: string): Repo {
    const ownerUser = this.userByLogin(owner);
    if (ownerUser) {
      for (const repo of this.repos.values()) {
        if (repo.ownerId === ownerUser.id && repo.name.toLowerCase() === name.toLowerCase()) {
          return repo;
        }
      }
    }
    throw notFound();
  }

  issueByNumber(repoId: number, number: number): Issue {
    for (const issue of this.issues.values()) {
      if (issue.repoId === repoId && issue.number === number) return issue;
    }
    throw notFound();
  }

  issuesOf(repoId: number): Issue[] {
    return [...this.issues.values()].filter((i) => i.repoId === repoId);
  }

  pull(repoId: number, number: number): Pull {
    const pull = this.pulls.get(`${repoId}#${number}`);
    if (!pull) throw notFound();
    return pull;
  }

  commentsOf(repoId: number, issueNumber: number): Comment[] {
    return [...this.comments.values()]
      .filter((c) => c.repoId === repoId && c.issueNumber === issueNumber)
      .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  }

  /** The role a user holds on a repository: owner → admin, collaborators as set, else read on public. */
  roleOf(repo: Repo, userId: number): Role | null {
    if (repo.ownerId === userId) return "admin";
    const role = repo.collaborators.get(userId);
    if (role) return role;
    return repo.private ? null : "read";
  }

  appByBotUser(userId: number): AppRecord | undefined {
    for (const app of this.apps.values()) if (app.botUserId === userId) return app;
    return undefined;
  }
}
