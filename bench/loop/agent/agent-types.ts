/**
 * What the bench's scripted agent sees and says. The agent is held fixed across arms, so the
 * benchmark measures the control plane: it gets only the prompt, the files of its branch
 * checkout and the read tools every arm gets, and keeps its memory in NOTES.md on its branch.
 */

/** The files of the agent's branch checkout; paths are relative to its root. */
export interface WorkTree {
  read(path: string): string | null;
  write(path: string, content: string): void;
  remove(path: string): void;
  list(): string[];
}

export interface PullCheck {
  name: string;
  conclusion: string;
  summary: string;
}

export interface PullReview {
  author: string;
  state: "approved" | "changes_requested" | "commented";
  body: string;
}

export interface PullView {
  number: number;
  checks: PullCheck[];
  reviews: PullReview[];
}

/** Read-only tools every arm gives the agent: the issue's comments and its own pull request. */
export interface ReadTools {
  issueComments(): { author: string; body: string }[];
  pull(): PullView | null;
}

/** One piece of work the agent knows how to do. */
export interface SkillTodo {
  title: string;
  /** How many slices it takes a competent agent. */
  slices: number;
  /** The full contents of the files that finish it. */
  files: Record<string, string>;
  /** `reviewFixes[n]`: the files that answer review round n+1. */
  reviewFixes: Record<string, string>[];
  /**
   * What each of `files` held before this todo, as the skill knows the project (a path not
   * here is a new file): the base it edits from when the file holds changes it did not make.
   */
  before?: Record<string, string>;
}

/**
 * What the agent knows how to do, handed to it by the bench the way a model brings its
 * competence. Discoveries are work it only finds once `afterTitle` is done.
 */
export interface Skill {
  plan: SkillTodo[];
  discoveries: { afterTitle: string; todo: SkillTodo; why: string }[];
  /** Where it keeps its notes (default NOTES.md): one file per objective it works on. */
  notesPath?: string;
}

export type Profile = "competent" | "flaky" | "stuck" | "overspending" | "injected" | "dies";

export const PROFILES = [
  "competent",
  "flaky",
  "stuck",
  "overspending",
  "injected",
  "dies",
] as const satisfies readonly Profile[];

export interface AgentInput {
  prompt: string;
  tree: WorkTree;
  tools: ReadTools;
  skill: Skill;
  profile: Profile;
  /**
   * The slice's luck: its draws (confused, botched, killed) come from this alone, whatever the
   * prompt or the world, so the same seed is the same luck in every arm and a run replays
   * exactly. A bench varies it per slice.
   */
  seed: number;
}

export interface AgentOutcome {
  /** The skill todo it worked, or null for a planning slice or when everything is done. */
  todo: string | null;
  /** What the agent claims; `stuck` claims progress it never makes. */
  progressed: boolean;
  finishedTodo: boolean;
  allDone: boolean;
  /** Files it wrote this slice (NOTES.md excepted), in the order written. */
  wroteFiles: string[];
  /** Titles: the plan when asked for one, or work discovered when a todo finished. */
  proposedTodos: string[];
  questions: string[];
  /** Model tokens consumed, as a metering proxy would count them, not a self-report. */
  tokens: number;
  /** Killed mid-slice: some files written, NOTES.md untouched, no result. */
  died: boolean;
  /** Paths it wrote because an injected instruction told it to, to check against the tree. */
  obeyed: string[];
  summary: string;
}

/**
 * An agent: the scripted policy (run-agent.ts) answers at once; a real model's CLI
 * (real-agent.ts) answers once its process has ended.
 */
export type Agent = (input: AgentInput) => AgentOutcome | Promise<AgentOutcome>;

/** One slice as an arm hands it over: the seed is not the arm's to choose. */
export type SliceInput = Omit<AgentInput, "seed">;

/**
 * The agent as the arms call it (arms/arm-run.ts `agentOf`): it seeds a cell's n-th slice
 * alike in every arm, so arms meet the same luck and differ only by what they do with it.
 */
export type SliceAgent = (input: SliceInput) => AgentOutcome | Promise<AgentOutcome>;
