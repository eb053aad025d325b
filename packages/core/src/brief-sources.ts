/**
 * Every source of text a brief can carry, and whether it may instruct the agent. Instructions
 * are LoopX's own wording and what people with write access wrote (read at the time of
 * their act); everything else is data: it appears only inside a block delimited by the
 * brief's random nonce, never in the header, the instruction line or `objective.title`.
 * build-brief.ts labels every block with its source; test/hostile/brief-sources.test.ts
 * plants a canary with a forged closing fence in each data source.
 */
export type BriefTrust = "instruction" | "data";

export interface BriefSource {
  /** What text this is and where it comes from. */
  what: string;
  trust: BriefTrust;
}

export const BRIEF_SOURCES = {
  loopx: {
    what: "LoopX's own wording: the header, the instruction line, the fixed wording of todos it did not take from a writer, gate keys and scopes",
    trust: "instruction",
  },
  writerIssue: {
    what: "the issue's title and body, when their author had write access when the goal started",
    trust: "instruction",
  },
  outsiderIssueTitle: {
    what: "the issue's title, when its author had no write access",
    trust: "data",
  },
  outsiderIssueBody: {
    what: "the issue's body, when its author had no write access",
    trust: "data",
  },
  writerComment: {
    what: "comments and approval notes by people with write access",
    trust: "instruction",
  },
  outsiderComment: {
    what: "comments by people without write access",
    trust: "data",
  },
  writerTodo: {
    what: "todos a writer added (`/loopx todo add`, the checklist, linking a writer's issue as a sub-issue), accepted (`/loopx todo accept T3`) or retitled on its sub-issue",
    trust: "instruction",
  },
  proposedTodo: {
    what: "todos an agent proposed, successors it named and planning todos, until a writer accepts them (approving a held plan lets them run; their text stays data)",
    trust: "data",
  },
  outsiderTodo: {
    what: "todos from an issue someone without write access wrote, linked as a sub-issue by a writer, until a writer retitles it",
    trust: "data",
  },
  monitorTodo: {
    what: "todos the PR monitor opened: CI check names and output, reviews and their inline comments",
    trust: "data",
  },
  handoff: {
    what: "the previous slice's handoff (agent output)",
    trust: "data",
  },
  evidence: {
    what: "evidence: CI check names and results, commit messages, what agents reported",
    trust: "data",
  },
  logs: {
    what: "CI logs and other outside text the caller passes in",
    trust: "data",
  },
} as const satisfies Record<string, BriefSource>;

export type BriefSourceId = keyof typeof BRIEF_SOURCES;

export type DataSourceId = {
  [K in BriefSourceId]: (typeof BRIEF_SOURCES)[K]["trust"] extends "data" ? K : never;
}[BriefSourceId];

const isData = (id: string): id is DataSourceId =>
  id in BRIEF_SOURCES && BRIEF_SOURCES[id as BriefSourceId].trust === "data";

/** The sources whose text is data: each has a canary in the hostile test. */
export const DATA_SOURCES: readonly DataSourceId[] = Object.keys(BRIEF_SOURCES).filter(isData);
