import type { IncomingMessage, ServerResponse } from "node:http";
import { closeWhenAnswered, readCapped } from "../read-capped.ts";

/**
 * GitHub never delivers a payload over 25 MB ("About webhook events and payloads", Payload
 * cap), so anything larger on the webhook path is not GitHub: it is refused unread.
 */
export const GITHUB_PAYLOAD_CAP = 25 * 1024 * 1024;

/**
 * Reads a webhook POST's body, up to GitHub's cap, before Probot sees the request, and hands
 * it over as `req.body` (which @octokit/webhooks' middleware reads instead of the stream).
 * Over the cap it answers 413 itself — before any signature check, which needs the whole
 * body — and returns true. Probot alone would buffer a stranger's body of any size first.
 */
export async function capWebhookBody(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "POST") return false;
  const body = await readCapped(req, GITHUB_PAYLOAD_CAP);
  if (body !== null) {
    Object.assign(req, { body: body.toString("utf8") });
    return false;
  }
  closeWhenAnswered(req, res);
  res.writeHead(413, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      error: `The body is larger than GitHub's ${GITHUB_PAYLOAD_CAP} byte webhook payload cap, so it is not a GitHub delivery; it was not read.`,
    }),
  );
  return true;
}
