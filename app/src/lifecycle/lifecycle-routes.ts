import { IssuesEvent } from "../issues/issue-payloads.ts";
import type { Routes } from "../webhooks/on.ts";
import { on } from "../webhooks/on.ts";
import {
  goalIssueGone,
  installationChanged,
  repositoriesRemoved,
  repositoryChanged,
} from "./goal-lifecycle.ts";
import { InstallationEvent, RepositoryEvent } from "./lifecycle-payloads.ts";

/** Installations and repositories: uninstall, suspension, removal, rename, transfer, archive. */
export const LIFECYCLE_HANDLERS: Routes = {
  "installation.deleted": on(InstallationEvent, installationChanged),
  "installation.suspend": on(InstallationEvent, installationChanged),
  "installation.unsuspend": on(InstallationEvent, installationChanged),
  "installation.new_permissions_accepted": on(InstallationEvent, installationChanged),
  "installation_repositories.removed": on(InstallationEvent, repositoriesRemoved),
  "repository.renamed": on(RepositoryEvent, repositoryChanged),
  "repository.transferred": on(RepositoryEvent, repositoryChanged),
  "repository.archived": on(RepositoryEvent, repositoryChanged),
  "repository.deleted": on(RepositoryEvent, repositoryChanged),
  "issues.transferred": on(IssuesEvent, goalIssueGone),
  "issues.deleted": on(IssuesEvent, goalIssueGone),
  "issues.locked": on(IssuesEvent, goalIssueGone),
};
