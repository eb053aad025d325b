import type { Store } from "./state/store.ts";
import type { Installation, PermissionLevel, Repo, User } from "./state/types.ts";
import type { WebhookBus } from "./webhooks/bus.ts";

/**
 * Account-level acts GitHub's REST API does not offer an app (or this sandbox does not
 * serve yet), as tests and the demo perform them: uninstalling an app, accepting its new
 * permissions and renaming a repository, each with the webhook GitHub sends.
 */
export function lifecycleApi(deps: {
  store: Store;
  bus: WebhookBus;
  user: (login: string) => User;
  repoByFullName: (fullName: string) => Repo;
}) {
  const { store, bus } = deps;
  return {
    /**
     * Uninstalls: `installation.deleted` is sent first (GitHub still signs it with the app's
     * secret), then the installation and its tokens are gone — later token requests fail.
     */
    uninstall(installationId: number, sender: string): void {
      const installation: Installation | undefined = store.installations.get(installationId);
      if (!installation) throw new Error(`sandbox: no installation ${installationId}`);
      bus.emitInstallation(installation, "deleted", deps.user(sender));
      store.installations.delete(installationId);
      for (const [token, record] of store.tokens) {
        if (record.installationId === installationId) store.tokens.delete(token);
      }
    },
    /**
     * An owner accepts the permissions the App asks for and the installation lacked: they
     * become the installation's, `installation.new_permissions_accepted` is sent, and tokens
     * minted before keep the permissions they were minted with until they expire (an hour).
     * Only what the App requests can be accepted.
     */
    acceptPermissions(
      installationId: number,
      permissions: Record<string, PermissionLevel>,
      sender: string,
    ): void {
      const installation = store.installations.get(installationId);
      if (!installation) throw new Error(`sandbox: no installation ${installationId}`);
      const app = store.apps.get(installation.appId);
      for (const [name, level] of Object.entries(permissions)) {
        if (app?.permissions[name] !== level)
          throw new Error(`sandbox: the app does not request ${name}: ${level}`);
      }
      installation.permissions = { ...installation.permissions, ...permissions };
      bus.emitInstallation(installation, "new_permissions_accepted", deps.user(sender));
    },
    /** Renames a repository (id unchanged) and sends `repository.renamed`. */
    renameRepo(fullName: string, newName: string, sender: string): Repo {
      const repo = deps.repoByFullName(fullName);
      const from = repo.name;
      repo.name = newName;
      bus.emit("repository", repo, deps.user(sender), {
        action: "renamed",
        changes: { repository: { name: { from } } },
      });
      return repo;
    },
  };
}
