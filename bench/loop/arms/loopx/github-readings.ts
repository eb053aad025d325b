/**
 * What the LoopX arm reads back from GitHub as a person would: the gates the App asked a
 * writer to approve, the patch it handed over, the PRs it opened and the comments it posted.
 */
import { z } from "zod";
import type { RepoRest } from "../../world/rest.ts";
import type { ArmContext } from "../arm-types.ts";

const APPROVE = /\/loopx approve ([A-Za-z0-9]+)/g;

/** Gate keys the App's comments on the issue and its pull requests ask a writer to approve. */
export async function askedKeys(rest: RepoRest, issue: number): Promise<Set<string>> {
  const keys = new Set<string>();
  const texts: string[] = [];
  for (const c of await rest.comments(issue)) {
    if (c.user?.login === "loopx[bot]") texts.push(c.body);
  }
  for (const pull of await rest.openPulls()) {
    for (const c of await rest.comments(pull.number)) {
      if (c.user?.login === "loopx[bot]") texts.push(c.body);
    }
    for (const r of await rest.checkRuns(pull.head.sha)) texts.push(r.output.summary ?? "");
  }
  for (const text of texts) for (const m of text.matchAll(APPROVE)) if (m[1]) keys.add(m[1]);
  return keys;
}

/**
 * The branch and patch of the App's "a change only you can push" comment, as a person reads
 * them: the branch its commands push, the patch block with the zero-width spaces stripped
 * as the comment says.
 */
export function patchHandedOver(body: string): { branch: string; patch: string } | null {
  const branch = /^git push origin (\S+)$/m.exec(body)?.[1];
  const patch = /\n(`{3,})diff\n([\s\S]*?)\n\1\n/.exec(body)?.[2];
  if (!branch || patch === undefined) return null;
  return { branch, patch: `${patch.replaceAll("\u200b", "")}\n` };
}

const PullsByAuthor = z.array(
  z.object({ number: z.number().int(), user: z.object({ login: z.string() }).nullable() }),
);

/** Pull requests the App's installation opened on the repository, in number order. */
export async function pullsBy(rest: RepoRest): Promise<number[]> {
  const pulls = await rest.call("GET", "/pulls?state=all&per_page=100", PullsByAuthor);
  return pulls
    .filter((p) => p.user?.login === "loopx[bot]")
    .map((p) => p.number)
    .sort((a, b) => a - b);
}

/** Comments the App posted on the goal issues and their pull requests. */
export function botComments(
  sandbox: ArmContext["world"]["sandbox"],
  repo: string,
  pulls: number[],
  issues: number[],
): number {
  let count = 0;
  for (const n of [...issues, ...pulls]) {
    const parsed = z
      .array(z.object({ user: z.object({ login: z.string() }).nullable().optional() }))
      .safeParse(sandbox.issue(repo, n).comments_list);
    if (parsed.success) count += parsed.data.filter((c) => c.user?.login === "loopx[bot]").length;
  }
  return count;
}

const PullsOfHead = z.array(
  z.object({ number: z.number().int(), state: z.string(), merged_at: z.string().nullable() }),
);

/** What became of the pull requests from `branch`, in words ("no pull request" when none). */
export async function pullsFrom(rest: RepoRest, owner: string, branch: string): Promise<string> {
  const head = encodeURIComponent(`${owner}:${branch}`);
  const pulls = await rest.call("GET", `/pulls?state=all&head=${head}&per_page=100`, PullsOfHead);
  if (pulls.length === 0) return "no pull request";
  const words = (p: z.infer<typeof PullsOfHead>[number]) =>
    `#${p.number} ${p.merged_at !== null ? "merged" : p.state}`;
  return `pull request ${pulls.map(words).join(", ")}`;
}
