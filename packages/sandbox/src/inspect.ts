import type { Renderer } from "./render/core.ts";
import { renderComment, renderIssue } from "./render/issues.ts";
import type { RequestLogEntry } from "./request-log.ts";
import type { Store } from "./state/store.ts";
import type { DeliveryLog } from "./webhooks/deliveries.ts";

/**
 * The inspection API tests read (in process, or over HTTP as `GET /_sandbox/<path>`):
 * `requests`, `deliveries`, `issues/<owner>/<repo>/<n>`, `runs/<id>` (a run with its jobs).
 */
export function inspector(deps: {
  store: Store;
  render: Renderer;
  deliveries: DeliveryLog;
  log: RequestLogEntry[];
}) {
  const { store, render, deliveries, log } = deps;
  const issue = (fullName: string, number: number) => {
    const [owner = "", name = ""] = fullName.split("/");
    const repo = store.repoByName(owner, name);
    const found = store.issueByNumber(repo.id, number);
    return {
      ...renderIssue(render, found),
      comments_list: store.commentsOf(repo.id, number).map((c) => renderComment(render, c)),
      sub_issue_ids: [...found.subIssueIds],
    };
  };
  const run = (id: number) => {
    const found = store.workflowRuns.get(id);
    if (!found) return undefined;
    const jobs = [...store.workflowJobs.values()].filter((j) => j.runId === id);
    return { ...found, jobs };
  };
  const inspect = (path: string): unknown => {
    const [kind, ...rest] = path.split("/");
    if (kind === "requests")
      return log.map(({ method, path: p, route, status, unsupported }) => ({
        method,
        path: p,
        route,
        status,
        unsupported,
      }));
    if (kind === "deliveries")
      return deliveries.all.map(({ id, guid, event, action, statusCode, redelivery, dropped }) => ({
        id,
        guid,
        event,
        action,
        statusCode,
        redelivery,
        dropped,
      }));
    try {
      if (kind === "issues" && rest.length === 3)
        return issue(`${rest[0]}/${rest[1]}`, Number(rest[2]));
    } catch {
      return undefined;
    }
    if (kind === "runs" && rest.length === 1) return run(Number(rest[0]));
    return undefined;
  };
  return { issue, run, inspect };
}
