/**
 * Sends a burst of signed webhooks from a worker thread, as GitHub would from elsewhere: the
 * sender's own work (fetch, body handling) then does not run on the App's event loop and
 * count against the App's throughput. Plain JavaScript evaluated in the worker (no loader).
 */
import { Worker } from "node:worker_threads";

export interface SignedDelivery {
  id: string;
  body: string;
  signature: string;
  /** The `X-GitHub-Event` header; `issues` when not given. */
  event?: string;
}

const SENDER = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, requests, inFlight } = workerData;
parentPort.once("message", async () => {
  let next = 0;
  const failures = [];
  const lane = async () => {
    while (next < requests.length) {
      const r = requests[next++];
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-github-event": r.event || "issues",
            "x-github-delivery": r.id,
            "x-hub-signature-256": r.signature,
          },
          body: r.body,
        });
        await res.arrayBuffer();
        if (!res.ok) failures.push(r.id + " answered " + res.status);
      } catch (error) {
        failures.push(r.id + ": " + String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  parentPort.postMessage({ failures });
});
parentPort.postMessage("ready");
`;

/**
 * Starts the worker, waits until it is ready, then calls `started` and lets it send; resolves
 * when every delivery has been answered.
 */
export async function sendBurst(
  url: string,
  requests: SignedDelivery[],
  inFlight: number,
  started: () => void,
): Promise<void> {
  const worker = new Worker(SENDER, { eval: true, workerData: { url, requests, inFlight } });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("message", () => resolve());
    });
    const done = new Promise<unknown>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("message", resolve);
    });
    started();
    worker.postMessage("go");
    const answer = await done;
    const failures =
      answer && typeof answer === "object" && "failures" in answer && Array.isArray(answer.failures)
        ? answer.failures
        : ["the sender answered nothing"];
    if (failures.length > 0) throw new Error(`webhook burst: ${failures.slice(0, 3).join("; ")}`);
  } finally {
    await worker.terminate();
  }
}
