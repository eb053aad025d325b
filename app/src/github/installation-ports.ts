import type { GitHubPort } from "@loopx/github";
import type { ContentLane, OpsStore } from "@loopx/store";
import type { Probot } from "probot";
import { z } from "zod";
import { withContentBudget } from "../content-budget.ts";
import { createLruMap } from "../lru-map.ts";
import { createConditionalCache, withConditionalReads } from "./conditional-reads.ts";
import { createOctokitPort } from "./octokit-port.ts";

const AppSlug = z.object({ slug: z.string().min(1) });

/** GitHub ports kept built, across installations and outsiders' lanes. */
const PORTS_KEPT = 1_000;

/** The GitHub port of an installation, spending a content lane's budget. */
export type PortIn = (installationId: number, lane: ContentLane) => Promise<GitHubPort>;

/**
 * Installation ports, made once per installation and lane and kept: building an Octokit with
 * its plugins and hooks cost a webhook more than its reads. A port's token is not held here
 * but in Probot's cache, which mints a new one when it expires and which renewToken empties.
 * Every port shares one cache of conditional reads and knows the App's bot login.
 */
export function createInstallationPorts(
  probot: Probot,
  ops: OpsStore,
  wrapPort?: (port: GitHubPort) => GitHubPort,
): PortIn {
  let bot: Promise<string> | null = null;
  const botLogin = () => {
    bot ??= probot
      .auth()
      .then((octokit) => octokit.rest.apps.getAuthenticated())
      .then(({ data }) => `${AppSlug.parse(data).slug}[bot]`)
      .catch((error: unknown) => {
        bot = null;
        throw error;
      });
    return bot;
  };
  const contents = createConditionalCache();
  const make: PortIn = async (installationId, lane) => {
    const octokit = withConditionalReads(
      withContentBudget(await probot.auth(installationId), installationId, ops, lane),
      contents,
    );
    const port = createOctokitPort(octokit, await botLogin());
    return wrapPort ? wrapPort(port) : port;
  };
  const ports = createLruMap<Promise<GitHubPort>>(PORTS_KEPT);
  return (installationId, lane) => {
    const key = lane.kind === "loopx" ? `${installationId}` : `${installationId} ${lane.subject}`;
    const kept = ports.get(key);
    if (kept) return kept;
    const made = make(installationId, lane);
    ports.set(key, made);
    made.catch(() => ports.delete(key));
    return made;
  };
}
