/**
 * When the scripted person acts, and what each act cost them. Every act waits a seeded
 * latency on the sandbox's simulated clock: it is performed when the clock is advanced past
 * its time (at exactly that time, so GitHub's timestamps say when the person acted) or when
 * `runDue` is called — whichever comes first, once. Acts run one at a time, as one person's.
 */
import { z } from "zod";
import type { Clock } from "../../../packages/sandbox/src/index.ts";
import { drawMinutes } from "./seeded.ts";

const Range = z
  .tuple([z.number().min(0), z.number().min(0)])
  .refine(([lo, hi]) => lo <= hi, "a latency range is [lo, hi] minutes with lo ≤ hi");

export const PersonModel = z.object({
  reviewLatencyMin: Range,
  answerLatencyMin: Range,
  mergeLatencyMin: Range,
  /** Minutes of a person's attention each act costs. */
  minutesPerAct: z.object({
    review: z.number().min(0),
    answer: z.number().min(0),
    merge: z.number().min(0),
    /** Reading a change handed over as a patch, applying it and pushing it. */
    push: z.number().min(0),
  }),
});
export type PersonModel = z.infer<typeof PersonModel>;

/** A maintainer and a reviewer who look at GitHub a few times a day. */
export const DEFAULT_PERSON: PersonModel = {
  reviewLatencyMin: [20, 240],
  answerLatencyMin: [10, 120],
  mergeLatencyMin: [5, 60],
  minutesPerAct: { review: 12, answer: 3, merge: 2, push: 10 },
};

export type Role = "maintainer" | "reviewer" | "outsider";
/** `outsider` acts are not the team's work: no latency is drawn and no minutes counted. */
export type ActKind = "review" | "answer" | "merge" | "push" | "outsider";
/** `stale`: by its time the act had nothing to do (the PR moved on); it costs nothing. */
export type ActOutcome = "done" | "refused" | "stale" | "failed";

/** Who performs an act of each kind unless the caller says. */
const DEFAULT_ROLE: Record<ActKind, Role> = {
  review: "reviewer",
  answer: "maintainer",
  merge: "maintainer",
  push: "maintainer",
  outsider: "outsider",
};

export interface ActResult {
  outcome: ActOutcome;
  detail: string;
}

/** One act the person performed. */
export interface PersonAct extends ActResult {
  /** Simulated ms when it was performed (what GitHub's timestamps say). */
  at: number;
  dueAt: number;
  kind: ActKind;
  as: Role;
  /** The issue or pull request it was about. */
  target: number | null;
  minutes: number;
}

export interface ScheduledAct {
  id: number;
  kind: ActKind;
  as: Role;
  target: number | null;
  dueAt: number;
  latencyMin: number;
  /** Settles when it has been performed; never rejects (a failure is an act `failed`). */
  performed: Promise<PersonAct>;
}

interface Entry {
  act: ScheduledAct;
  fn: () => Promise<ActResult>;
  resolve: (act: PersonAct) => void;
  cancelTimer: () => void;
  started: boolean;
}

export class PersonActs {
  private readonly done: PersonAct[] = [];
  private readonly queue = new Map<number, Entry>();
  private readonly drawn: Record<ActKind, number> = {
    review: 0,
    answer: 0,
    merge: 0,
    push: 0,
    outsider: 0,
  };
  private nextId = 1;
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    readonly seed: number,
    readonly model: PersonModel,
  ) {
    const parsed = PersonModel.safeParse(model);
    if (!parsed.success) {
      throw new Error(`the person model is invalid:\n${z.prettifyError(parsed.error)}`);
    }
  }

  /** The `n`th (0-based) latency of `kind`, in minutes: the same for a seed in every arm. */
  latencyMin(kind: ActKind, n: number): number {
    if (kind === "outsider") return 0;
    // A change to push is asked of the maintainer like any question: it waits as long.
    const range = {
      review: this.model.reviewLatencyMin,
      answer: this.model.answerLatencyMin,
      merge: this.model.mergeLatencyMin,
      push: this.model.answerLatencyMin,
    }[kind];
    return drawMinutes(this.seed, kind, n, range);
  }

  schedule(
    kind: ActKind,
    fn: () => Promise<ActResult>,
    who: { as?: Role; target?: number | null } = {},
  ): ScheduledAct {
    const latencyMin = this.latencyMin(kind, this.drawn[kind]++);
    const dueAt = this.clock.now() + latencyMin * 60_000;
    let resolve: (act: PersonAct) => void = () => undefined;
    const performed = new Promise<PersonAct>((r) => {
      resolve = r;
    });
    const id = this.nextId++;
    const act: ScheduledAct = {
      id,
      kind,
      as: who.as ?? DEFAULT_ROLE[kind],
      target: who.target ?? null,
      dueAt,
      latencyMin,
      performed,
    };
    const entry: Entry = { act, fn, resolve, cancelTimer: () => undefined, started: false };
    this.queue.set(id, entry);
    entry.cancelTimer = this.clock.at(dueAt, async () => {
      await this.perform(entry);
    });
    return act;
  }

  /** Performs, in time order, every act due by `now` (default: the sandbox's clock). */
  async runDue(now: number = this.clock.now()): Promise<PersonAct[]> {
    const due = [...this.queue.values()]
      .filter((e) => e.act.dueAt <= now)
      .sort((a, b) => a.act.dueAt - b.act.dueAt || a.act.id - b.act.id);
    const out: PersonAct[] = [];
    for (const entry of due) out.push(await this.perform(entry));
    return out;
  }

  pending(): ScheduledAct[] {
    return [...this.queue.values()].filter((e) => !e.started).map((e) => e.act);
  }

  acts(): readonly PersonAct[] {
    return this.done;
  }

  /** The team's effort: acts that cost attention, and their minutes. */
  effort(): { acts: number; minutes: number } {
    const counted = this.done.filter((a) => a.minutes > 0);
    return { acts: counted.length, minutes: counted.reduce((sum, a) => sum + a.minutes, 0) };
  }

  /** Drops every act not yet started (a cell that ends leaves no timers on a shared clock). */
  cancelAll(): void {
    for (const entry of this.queue.values()) {
      if (!entry.started) {
        entry.cancelTimer();
        this.queue.delete(entry.act.id);
      }
    }
  }

  private perform(entry: Entry): Promise<PersonAct> {
    if (entry.started) return entry.act.performed;
    entry.started = true;
    entry.cancelTimer();
    const run = async (): Promise<PersonAct> => {
      const at = this.clock.now();
      let result: ActResult;
      try {
        result = await entry.fn();
      } catch (error) {
        result = {
          outcome: "failed",
          detail: error instanceof Error ? error.message : String(error),
        };
      }
      const { kind } = entry.act;
      const free = kind === "outsider" || result.outcome === "stale";
      const act: PersonAct = {
        ...result,
        at,
        dueAt: entry.act.dueAt,
        kind,
        as: entry.act.as,
        target: entry.act.target,
        minutes: free ? 0 : this.model.minutesPerAct[kind],
      };
      this.done.push(act);
      this.queue.delete(entry.act.id);
      entry.resolve(act);
      return act;
    };
    const next = this.serial.then(run);
    this.serial = next;
    return next;
  }
}
