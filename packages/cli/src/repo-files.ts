/** Reading a repository's files through the REST contents API, zod-parsed. */
import type { Octokit } from "@octokit/rest";
import { z } from "zod";
import { CliError, EXIT } from "./api-client.ts";

const FileContent = z.object({
  type: z.literal("file"),
  content: z.string(),
  encoding: z.string(),
});
const DirEntry = z.array(z.object({ type: z.string(), name: z.string(), path: z.string() }));
const StatusError = z.object({ status: z.number() });

function statusOf(error: unknown): number | null {
  return StatusError.safeParse(error).data?.status ?? null;
}

function unreachable(what: string, error: unknown): CliError {
  const status = statusOf(error);
  if (status === 401) {
    return new CliError(
      `GitHub refused the token while ${what}: set GITHUB_TOKEN to a valid token.`,
      EXIT.unreachable,
    );
  }
  const why = error instanceof Error ? error.message : String(error);
  return new CliError(
    `GitHub failed while ${what} (${why}); check GITHUB_API_URL and the network.`,
    EXIT.unreachable,
  );
}

/** A text file, or null when it does not exist. */
export async function readFile(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  path: string,
): Promise<string | null> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path });
    const file = FileContent.parse(data);
    return Buffer.from(file.content, file.encoding === "base64" ? "base64" : "utf8").toString(
      "utf8",
    );
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw unreachable(`reading ${path}`, error);
  }
}

/** The files of a directory (names and paths), or [] when it does not exist. */
export async function listDir(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  path: string,
): Promise<{ name: string; path: string }[]> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path });
    return DirEntry.parse(data).filter((e) => e.type === "file");
  } catch (error) {
    if (statusOf(error) === 404) return [];
    throw unreachable(`listing ${path}`, error);
  }
}

/** The repository must be readable with this token before anything else is checked. */
export async function requireRepo(octokit: Octokit, repo: { owner: string; repo: string }) {
  try {
    await octokit.rest.repos.get(repo);
  } catch (error) {
    if (statusOf(error) === 404) {
      throw new CliError(
        `${repo.owner}/${repo.repo} was not found, or GITHUB_TOKEN cannot read it.`,
        EXIT.notFound,
      );
    }
    throw unreachable(`reading ${repo.owner}/${repo.repo}`, error);
  }
}

/** Required reviewers on an environment; null when GitHub does not tell (no access, no API). */
export async function environmentHasReviewers(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  name: string,
): Promise<boolean | null> {
  try {
    const { data } = await octokit.rest.repos.getEnvironment({ ...repo, environment_name: name });
    const rules = z
      .object({ protection_rules: z.array(z.object({ type: z.string() })).optional() })
      .parse(data);
    return (rules.protection_rules ?? []).some((r) => r.type === "required_reviewers");
  } catch {
    return null;
  }
}
