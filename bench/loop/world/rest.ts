/**
 * The few REST calls the world makes as people, over HTTP with a user token like any client,
 * each answer parsed with zod: the sandbox is someone else's code, and a changed shape must
 * stop the bench with the field named rather than skew what the person decides.
 */
import { z } from "zod";

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly route: string,
    readonly apiMessage: string,
  ) {
    super(`${route} answered ${status}: ${apiMessage}`);
  }
}

const ErrorBody = z.object({ message: z.string() }).partial();

export const Pull = z.object({
  number: z.number().int(),
  state: z.enum(["open", "closed"]),
  merged: z.boolean(),
  head: z.object({ ref: z.string(), sha: z.string() }),
  base: z.object({ ref: z.string() }),
});
export type Pull = z.infer<typeof Pull>;

export const Review = z.object({
  id: z.number().int(),
  user: z.object({ login: z.string() }).nullable(),
  state: z.string(),
  commit_id: z.string().nullable(),
  body: z.string().nullable(),
});
export type Review = z.infer<typeof Review>;

export const CheckRun = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable(),
  output: z.object({ title: z.string().nullable(), summary: z.string().nullable() }),
});
export type CheckRun = z.infer<typeof CheckRun>;

const CheckRuns = z.object({ check_runs: z.array(CheckRun) });

export const Comment = z.object({
  id: z.number().int(),
  body: z.string(),
  user: z.object({ login: z.string() }).nullable(),
  author_association: z.string(),
});
export type Comment = z.infer<typeof Comment>;

const Issue = z.object({ number: z.number().int() });
const Merged = z.object({ sha: z.string(), merged: z.boolean() });

/** A person's client for one repository (`owner/name`) of the sandbox at `baseUrl`. */
export class RepoRest {
  constructor(
    private readonly baseUrl: string,
    private readonly repo: string,
    private readonly token: string,
  ) {}

  async call<T>(
    method: string,
    path: string,
    schema: z.ZodType<T>,
    body?: Record<string, unknown>,
  ): Promise<T> {
    const route = `${method} /repos/${this.repo}${path}`;
    const res = await fetch(`${this.baseUrl}/repos/${this.repo}${path}`, {
      method,
      headers: {
        authorization: `token ${this.token}`,
        accept: "application/vnd.github+json",
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const json = parseJson(text);
    if (!res.ok) {
      const parsed = ErrorBody.safeParse(json);
      throw new RestError(res.status, route, parsed.data?.message ?? text.slice(0, 200));
    }
    if (json === undefined) {
      throw new Error(
        `${route} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new Error(
        `${route}: the answer does not have the shape the bench world reads (bench/loop/world/rest.ts):\n${z.prettifyError(parsed.error)}`,
      );
    }
    return parsed.data;
  }

  pull = (n: number) => this.call("GET", `/pulls/${n}`, Pull);
  openPulls = () => this.call("GET", "/pulls?state=open&per_page=100", z.array(Pull));
  reviews = (n: number) => this.call("GET", `/pulls/${n}/reviews?per_page=100`, z.array(Review));
  checkRuns = async (sha: string) =>
    (await this.call("GET", `/commits/${sha}/check-runs?per_page=100`, CheckRuns)).check_runs;
  createPull = (head: string, title: string, body = "") =>
    this.call("POST", "/pulls", Pull, { head, base: "main", title, body });
  createIssue = async (title: string, body = "") =>
    (await this.call("POST", "/issues", Issue, { title, body })).number;
  comment = (issue: number, body: string) =>
    this.call("POST", `/issues/${issue}/comments`, Comment, { body });
  comments = (issue: number) =>
    this.call("GET", `/issues/${issue}/comments?per_page=100`, z.array(Comment));
  review = (n: number, commitId: string, event: "APPROVE" | "REQUEST_CHANGES", body: string) =>
    this.call("POST", `/pulls/${n}/reviews`, Review, { commit_id: commitId, event, body });
  merge = (n: number, sha: string) =>
    this.call("PUT", `/pulls/${n}/merge`, Merged, { merge_method: "merge", sha });
}

/** The body's JSON; null for an empty body, undefined when it is not JSON. */
function parseJson(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
