import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../deps.ts";
import { closeWhenAnswered, readCapped } from "../read-capped.ts";

/**
 * GitHub never delivers a payload over 25 MB ("About webhook events and payloads", Payload
 * cap), so anything larger on the webhook path is not GitHub: it is refused unread.
 */
export const GITHUB_PAYLOAD_CAP = 25 * 1024 * 1024;

/** A delivery whose signature matched: what the inbox stores. */
export interface VerifiedDelivery {
  id: string;
  name: string;
  payload: Record<string, unknown>;
  /** The body `payload` was parsed from, as GitHub signed it. */
  body: string;
}

export interface WebhookIntakeOptions {
  /** Whether `signature` (`sha256=…`) is the webhook secret's HMAC of `body`. */
  verify(body: string, signature: string): Promise<boolean>;
  /** Stores the delivery; GitHub is answered 2xx only once it resolves. */
  record(delivery: VerifiedDelivery): Promise<void>;
  log: Logger;
}

const JSON_TYPE = /^\s*application\/json\s*(?:;|$)/iu;
const REQUIRED = ["x-github-event", "x-hub-signature-256", "x-github-delivery"] as const;

/**
 * The webhook endpoint's POST: refuses what GitHub would never send (a body over its cap, no
 * JSON, a missing header, a signature that does not match) with the status and message
 * @octokit/webhooks' middleware gives, and answers 200 once the delivery is stored.
 *
 * It stands in for Probot's middleware because that one builds, for every delivery, an
 * installation Octokit and a child logger for handlers to use; the App's only handler
 * stores the delivery, and that construction cost more than the store's insert. It also
 * never answers 202 "still processing" while the insert is still running: a delivery is
 * acknowledged only once it is durable, and one GitHub gives up on is fetched back by the
 * reconcile sweep (the inbox ignores a delivery id it already holds).
 */
export function createWebhookIntake(opts: WebhookIntakeOptions) {
  return async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") {
      return answer(res, 404, { error: `Unknown route: ${req.method} ${pathOf(req)}` });
    }
    const type = req.headers["content-type"];
    if (typeof type !== "string" || !JSON_TYPE.test(type)) {
      return refuseUnread(req, res, 415, {
        error: 'Unsupported "Content-Type" header value. Must be "application/json"',
      });
    }
    const missing = REQUIRED.filter((h) => typeof req.headers[h] !== "string");
    if (missing.length > 0) {
      return refuseUnread(req, res, 400, {
        error: `Required headers missing: ${missing.join(", ")}`,
      });
    }
    const bytes = await readCapped(req, GITHUB_PAYLOAD_CAP);
    if (bytes === null) {
      return refuseUnread(req, res, 413, {
        error: `The body is larger than GitHub's ${GITHUB_PAYLOAD_CAP} byte webhook payload cap, so it is not a GitHub delivery; it was not read.`,
      });
    }
    const body = bytes.toString("utf8");
    const name = header(req, "x-github-event");
    const id = header(req, "x-github-delivery");
    const signature = header(req, "x-hub-signature-256");
    if (!(await opts.verify(body, signature).catch(() => false))) {
      opts.log.warn(
        `webhook ${id} (${name}) refused: its signature does not match; if GitHub sent it, set WEBHOOK_SECRET to the App's webhook secret`,
      );
      return answer(res, 400, {
        error: "[@octokit/webhooks] signature does not match event payload and secret",
      });
    }
    const payload = parseObject(body);
    if (payload === null) {
      return answer(res, 400, { error: "Invalid JSON: the payload is not a JSON object" });
    }
    try {
      await opts.record({ id, name, payload, body });
    } catch (error) {
      opts.log.error(
        `webhook ${id} (${name}) not stored: ${error instanceof Error ? error.message : String(error)}; GitHub marks it failed and the reconcile sweep fetches it back`,
      );
      return answer(res, 500, {
        error: "The delivery could not be stored; it will be fetched back.",
      });
    }
    res.writeHead(200, { "content-type": "text/plain", "content-length": "3" }).end("ok\n");
  };
}

function header(req: IncomingMessage, name: (typeof REQUIRED)[number]): string {
  const value = req.headers[name];
  return typeof value === "string" ? value : "";
}

function parseObject(body: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  return isObject(value) ? value : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://localhost").pathname;
}

/** A refusal sent before the body was read: the body is discarded, never buffered. */
function refuseUnread(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: { error: string },
): void {
  closeWhenAnswered(req, res);
  answer(res, status, body);
}

function answer(res: ServerResponse, status: number, body: { error: string }): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
    })
    .end(text);
}
