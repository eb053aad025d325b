import type { IncomingMessage, ServerResponse } from "node:http";
import type { SafeHtml } from "./escape-html.ts";

/**
 * What a program hosting the App may add to its dashboard: the loopback demo plugs its
 * approve/reject buttons in here. The App itself adds nothing, so a deployment's dashboard
 * has no route that acts on a goal; every decision stays a comment or review on GitHub.
 */
export interface DashboardExtension {
  /** Why this request must not be answered at all (checked before any page), or null. */
  refuse(req: IncomingMessage): string | null;
  /** Controls shown beside an open gate, in place of the hint to comment on the issue. */
  gateControls(goalId: string, gateKey: string): SafeHtml;
  /** The overview's notice line for the redirect this extension made ("" for none). */
  notice(query: URLSearchParams): string;
  /** Serves a route of its own under /loopx; true when it answered the request. */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    reply: DashboardReply,
  ): Promise<boolean>;
}

/** How an extension answers, with the dashboard's own headers (no-store, CSP, nosniff). */
export interface DashboardReply {
  html(res: ServerResponse, status: number, title: string, body: SafeHtml): void;
  json(res: ServerResponse, status: number, body: unknown): void;
}
