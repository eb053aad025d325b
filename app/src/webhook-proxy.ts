/**
 * WEBHOOK_PROXY_URL, as `probot run` offers it: a smee.io channel (or any server speaking its
 * protocol) receives GitHub's webhooks on the internet, and this process relays each one to
 * its own webhook path, so an App on a laptop gets them. For development: production gets
 * its webhooks straight from GitHub.
 */
import { SmeeClient } from "smee-client";
import type { Logger } from "./deps.ts";

export interface WebhookProxy {
  stop(): Promise<void>;
}

export async function startWebhookProxy(opts: {
  url: string;
  target: string;
  log: Logger;
}): Promise<WebhookProxy> {
  const client = new SmeeClient({
    source: opts.url,
    target: opts.target,
    logger: {
      info: (m: string) => opts.log.info(`webhook proxy: ${m}`),
      error: (m: unknown) => opts.log.error(`webhook proxy: ${String(m)}`),
    },
    maxConnectionTimeout: 30_000,
  });
  try {
    await client.start();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot reach WEBHOOK_PROXY_URL (${opts.url}): ${why}; check the channel URL (https://smee.io/new makes one), or unset it`,
    );
  }
  opts.log.warn(
    `webhooks come through ${opts.url} (WEBHOOK_PROXY_URL), for development: point the App's webhook URL at it`,
  );
  return { stop: () => client.stop() };
}
