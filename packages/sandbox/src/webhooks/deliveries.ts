import { randomUUID } from "node:crypto";
import { Webhooks } from "@octokit/webhooks";
import type { Clock } from "../clock.ts";
import type { Json } from "../render/core.ts";

/** One attempt to deliver a webhook, as `/app/hook/deliveries` reports it. */
export interface Delivery {
  id: number;
  guid: string;
  event: string;
  action: string | null;
  appId: number;
  installationId: number | null;
  repositoryId: number | null;
  payload: Json;
  url: string;
  redelivery: boolean;
  /** Simulated time of the attempt. */
  deliveredAt: number;
  durationMs: number;
  statusCode: number;
  status: string;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** Set when a fault dropped it: the receiver never saw it. */
  dropped: boolean;
  /** The fault that struck it, if one did (a dropped one is also `dropped`). */
  fault: WebhookFaultMode | null;
}

export type WebhookFaultMode = "drop" | "duplicate" | "delay" | "reorder";

export interface WebhookFault {
  mode: WebhookFaultMode;
  /** Only deliveries of this event (and action, e.g. "issues.labeled" or "issues"). */
  event?: string;
  /** How many deliveries it applies to; unlimited when absent. */
  times?: number;
  /** For `delay`: real milliseconds to wait before sending. */
  delayMs?: number;
}

export interface DeliveryTarget {
  appId: number;
  url: string | null;
  secret: string;
}

const HOOK_ID = 4_242_001;

/** Sends signed webhooks and keeps the delivery log; faults can drop, duplicate, delay, reorder. */
export class DeliveryLog {
  readonly all: Delivery[] = [];
  private nextId = 90_000_000_000;
  private readonly faults: WebhookFault[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private held: Array<() => Promise<void>> = [];

  private readonly signers = new Map<string, Webhooks>();

  constructor(private readonly clock: Clock) {}

  private signer(secret: string): Webhooks {
    let webhooks = this.signers.get(secret);
    if (!webhooks) {
      webhooks = new Webhooks({ secret });
      this.signers.set(secret, webhooks);
    }
    return webhooks;
  }

  addFault(fault: WebhookFault): void {
    this.faults.push({ ...fault });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Waits until every queued, delayed and held delivery has been attempted. */
  async settle(): Promise<void> {
    for (let i = 0; i < 100 && (this.inFlight.size > 0 || this.held.length > 0); i++) {
      if (this.inFlight.size === 0) this.releaseHeld();
      await Promise.allSettled([...this.inFlight]);
    }
  }

  private takeFault(event: string, action: string | null): WebhookFault | undefined {
    const fault = this.faults.find(
      (f) => !f.event || f.event === event || f.event === `${event}.${action ?? ""}`,
    );
    if (!fault) return undefined;
    if (fault.times !== undefined) {
      fault.times -= 1;
      if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    }
    return fault;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const send of held) this.track(send());
  }

  send(
    target: DeliveryTarget,
    event: string,
    payload: Json,
    meta: { installationId: number | null; repositoryId: number | null },
    guid: string = randomUUID(),
    redelivery = false,
  ): Delivery {
    const action = typeof payload.action === "string" ? payload.action : null;
    const delivery: Delivery = {
      id: ++this.nextId,
      guid,
      event,
      action,
      appId: target.appId,
      ...meta,
      payload,
      url: target.url ?? "",
      redelivery,
      deliveredAt: this.clock.now(),
      durationMs: 0,
      statusCode: 0,
      status: "Pending",
      requestHeaders: {},
      responseHeaders: {},
      responseBody: "",
      dropped: false,
      fault: null,
    };
    this.all.push(delivery);
    const fault = redelivery ? undefined : this.takeFault(event, action);
    delivery.fault = fault?.mode ?? null;
    const go = () => this.attempt(delivery, target);
    const previouslyHeld = this.held;
    this.held = [];
    if (fault?.mode === "drop") {
      delivery.dropped = true;
      delivery.status = "Dropped by sandbox fault";
      delivery.statusCode = 502;
    } else if (fault?.mode === "reorder") {
      this.held.push(go);
    } else if (fault?.mode === "delay") {
      this.track(new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 50)).then(go));
    } else {
      this.track(go());
      if (fault?.mode === "duplicate") this.track(this.attempt(delivery, target));
    }
    // A held (reordered) delivery goes out right after the next one.
    for (const send of previouslyHeld) this.track(Promise.resolve().then(send));
    return delivery;
  }

  private async attempt(delivery: Delivery, target: DeliveryTarget): Promise<void> {
    if (!target.url) {
      delivery.status = "No webhook URL configured";
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/sandbox",
      "x-github-event": delivery.event,
      "x-github-delivery": delivery.guid,
      "x-github-hook-id": String(HOOK_ID),
      "x-github-hook-installation-target-id": String(target.appId),
      "x-github-hook-installation-target-type": "integration",
      "x-hub-signature-256": await this.signer(target.secret).sign(body),
    };
    delivery.requestHeaders = headers;
    const started = performance.now();
    try {
      const response = await fetch(target.url, { method: "POST", headers, body });
      delivery.statusCode = response.status;
      delivery.status = response.ok ? "OK" : `Invalid HTTP Response: ${response.status}`;
      delivery.responseHeaders = Object.fromEntries(response.headers.entries());
      delivery.responseBody = await response.text();
    } catch (error) {
      delivery.statusCode = 0;
      delivery.status = `failed to connect: ${error instanceof Error ? error.message : String(error)}`;
    }
    delivery.durationMs = performance.now() - started;
  }
}
