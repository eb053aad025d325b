/**
 * The agent's read tools over GitHub's REST API: the issue's comments and the open pull
 * request of the branch it works on, with that head's checks and the PR's reviews. Every arm
 * reads them this way; inside LoopX's jailed agent job there is no token, so the CLI reads a
 * public repository anonymously, as anyone may on GitHub.
 */
import { z } from "zod";
import type { PullReview, PullView, ReadTools } from "./agent-types.ts";

export interface GithubSource {
  /** The REST API's base URL (https://api.github.com, or the sandbox's). */
  api: string;
  /** `owner/name`. */
  repo: string;
  /** A token to read with; none reads anonymously (public repositories only). */
  token?: string;
}

const Comments = z.array(
  z.object({ body: z.string(), user: z.object({ login: z.string() }).nullable() }),
);
const Pulls = z.array(
  z.object({ number: z.number().int(), head: z.object({ ref: z.string(), sha: z.string() }) }),
);
const CheckRuns = z.object({
  check_runs: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      conclusion: z.string().nullable(),
      output: z.object({ summary: z.string().nullable() }),
    }),
  ),
});
const Reviews = z.array(
  z.object({
    state: z.string(),
    body: z.string().nullable(),
    user: z.object({ login: z.string() }).nullable(),
  }),
);

/** A review's verdict as the agent reads it (pending and dismissed reviews say nothing). */
function verdictOf(state: string): PullReview["state"] | null {
  if (state === "APPROVED") return "approved";
  if (state === "CHANGES_REQUESTED") return "changes_requested";
  if (state === "COMMENTED") return "commented";
  return null;
}

/** Reads the tools' answers once, now: a slice sees GitHub as it was when the slice began. */
export async function readGithubTools(
  source: GithubSource,
  issue: number,
  branch: string,
): Promise<ReadTools> {
  const get = getter(source);
  const comments = (await get(`/issues/${issue}/comments?per_page=100`, Comments)).map((c) => ({
    author: c.user?.login ?? "ghost",
    body: c.body,
  }));
  const pull = (await get("/pulls?state=open&per_page=100", Pulls)).find(
    (p) => p.head.ref === branch,
  );
  let view: PullView | null = null;
  if (pull) {
    const runs = await get(`/commits/${pull.head.sha}/check-runs?per_page=100`, CheckRuns);
    const reviews = await get(`/pulls/${pull.number}/reviews?per_page=100`, Reviews);
    view = {
      number: pull.number,
      checks: runs.check_runs.map((r) => ({
        name: r.name,
        conclusion: r.conclusion ?? r.status,
        summary: r.output.summary ?? "",
      })),
      reviews: reviews.flatMap((r) => {
        const state = verdictOf(r.state);
        return state ? [{ author: r.user?.login ?? "ghost", state, body: r.body ?? "" }] : [];
      }),
    };
  }
  return { issueComments: () => comments, pull: () => view };
}

function getter(source: GithubSource) {
  return async <T>(path: string, schema: z.ZodType<T>): Promise<T> => {
    const url = `${source.api.replace(/\/+$/, "")}/repos/${source.repo}${path}`;
    const res = await fetch(url, {
      headers: {
        accept: "application/vnd.github+json",
        ...(source.token ? { authorization: `token ${source.token}` } : {}),
      },
    });
    const text = await res.text();
    if (!res.ok) {
      throw new Error(
        `GET ${url} answered ${res.status}${source.token ? "" : " (read anonymously: is the repository public?)"}: ${text.slice(0, 200)}`,
      );
    }
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new Error(`GET ${url}: unexpected answer: ${z.prettifyError(parsed.error)}`);
    }
    return parsed.data;
  };
}
