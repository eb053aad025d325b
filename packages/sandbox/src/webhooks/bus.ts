import type { Json, Renderer } from "../render/core.ts";
import type { Installation, Repo, User } from "../state/types.ts";
import type { Delivery, DeliveryLog } from "./deliveries.ts";

export interface BusConfig {
  /** Where webhooks go; the app's own URL wins when set. Changeable at run time. */
  webhookUrl: string | null;
}

/**
 * Turns state changes into webhook deliveries for every app installation that covers the
 * repository and subscribes to the event, with GitHub's envelope (repository, sender,
 * installation).
 */
export class WebhookBus {
  /** Every payload emitted, for the fidelity tests. */
  readonly emitted: Array<{ event: string; payload: Json }> = [];

  constructor(
    private readonly render: Renderer,
    readonly log: DeliveryLog,
    readonly config: BusConfig,
  ) {}

  private installationsFor(repo: Repo): Installation[] {
    return [...this.render.store.installations.values()].filter((i) =>
      i.repositoryIds.includes(repo.id),
    );
  }

  private subscribed(installation: Installation, event: string): boolean {
    if (event === "installation" || event === "installation_repositories") return true;
    return installation.events.length === 0 || installation.events.includes(event);
  }

  /**
   * Announces an event to every installation covering the repository; `onlyAppId` narrows it to
   * one app's installations (GitHub sends `check_suite.requested` only to the suite's app).
   */
  emit(event: string, repo: Repo, sender: User, body: Json, onlyAppId?: number): Delivery[] {
    const out: Delivery[] = [];
    for (const installation of this.installationsFor(repo)) {
      if (!this.subscribed(installation, event)) continue;
      if (onlyAppId !== undefined && installation.appId !== onlyAppId) continue;
      const payload: Json = {
        ...body,
        repository: this.render.repo(repo, "webhook"),
        sender: this.render.user(sender, "webhook"),
        installation: this.render.installationLite(installation),
      };
      out.push(this.deliver(installation, event, payload, repo.id));
    }
    return out;
  }

  emitInstallation(installation: Installation, action: string, sender: User): Delivery {
    const store = this.render.store;
    const repositories = installation.repositoryIds.map((id) => {
      const repo = store.repo(id);
      return {
        id: repo.id,
        node_id: String(this.render.repo(repo).node_id),
        name: repo.name,
        full_name: store.fullName(repo),
        private: repo.private,
      };
    });
    const payload: Json = {
      action,
      installation: this.render.installation(installation, "webhook"),
      repositories,
      sender: this.render.user(sender, "webhook"),
    };
    return this.deliver(installation, "installation", payload, null);
  }

  private deliver(
    installation: Installation,
    event: string,
    payload: Json,
    repositoryId: number | null,
  ): Delivery {
    const app = this.render.store.apps.get(installation.appId);
    if (!app) throw new Error(`sandbox: installation ${installation.id} has no app`);
    this.emitted.push({ event, payload });
    return this.log.send(
      { appId: app.id, url: this.config.webhookUrl, secret: app.webhookSecret },
      event,
      payload,
      { installationId: installation.id, repositoryId },
    );
  }

  /** Sends a past delivery again: same `X-GitHub-Delivery`, marked as a redelivery. */
  redeliver(delivery: Delivery): Delivery {
    const app = this.render.store.apps.get(delivery.appId);
    if (!app) throw new Error(`sandbox: delivery ${delivery.id} has no app`);
    return this.log.send(
      { appId: app.id, url: this.config.webhookUrl, secret: app.webhookSecret },
      delivery.event,
      delivery.payload,
      { installationId: delivery.installationId, repositoryId: delivery.repositoryId },
      delivery.guid,
      true,
    );
  }
}
