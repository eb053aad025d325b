import {
  goalIssueGone,
  installationChanged,
  repositoriesRemoved,
  repositoryChanged,
} from "../handlers/goal-lifecycle.ts";
import { InstallationEvent, IssuesEvent, RepositoryEvent } from "../webhooks/payloads.ts";
import { on } from "./on.ts";
import type { Routes } from "./route-table.ts";

/** Installations and repositories: uninstall, suspension, removal, rename, transfer, archive. */
export const LIFECYCLE_HANDLERS: Routes = {
  "installation.deleted": on(InstallationEvent, installationChanged),
  "installation.suspend": on(InstallationEvent, installationChanged),
  "installation.unsuspend": on(InstallationEvent, installationChanged),
  "installation_repositories.removed": on(InstallationEvent, repositoriesRemoved),
  "repository.renamed": on(RepositoryEvent, repositoryChanged),
  "repository.transferred": on(RepositoryEvent, repositoryChanged),
  "repository.archived": on(RepositoryEvent, repositoryChanged),
  "repository.deleted": on(RepositoryEvent, repositoryChanged),
  "issues.transferred": on(IssuesEvent, goalIssueGone),
  "issues.deleted": on(IssuesEvent, goalIssueGone),
  "issues.locked": on(IssuesEvent, goalIssueGone),
};
