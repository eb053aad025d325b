/**
 * LoopX as shipped, as one arm of `bench:loop`: the real App (Probot, the tick API, the
 * kernel, a fresh store) on the cell's sandbox, installed on the cell's repository, with its
 * tick workflow's three jobs played in process for every run its own scheduler dispatches
 * (arms/loopx/play-tick.ts). The people are the world's: they review and merge what they would,
 * and the maintainer answers the App's gates. Time moves by jumps to the next due thing: the
 * goal's next wake, the next act of a person, or an hour when nothing is due.
 */
import { RepoRest } from "../world/rest.ts";
import { agentOf, emptyRun } from "./arm-run.ts";
import { ABLATION, type Arm, type ArmContext, type ArmRun, type LoopxPart } from "./arm-types.ts";
import { ablationHooks } from "./loopx/ablation-hooks.ts";
import { type ActionHarness, type ActionTicks, actionTicks } from "./loopx/action-tick.ts";
import { actionsOutage } from "./loopx/actions-outage.ts";
import { botComments, pullsBy } from "./loopx/github-readings.ts";
import { goalPeople } from "./loopx/goal-people.ts";
import { fileGoals, installLoopx } from "./loopx/install-loopx.ts";
import { armLoopxFaults } from "./loopx/loopx-faults.ts";
import { playTick } from "./loopx/play-tick.ts";
import { personReruns, reportFault } from "./loopx/report-faults.ts";
import { driver } from "./plain-loop/schedule.ts";

export interface LoopxArmOptions {
  /** How far the clock jumps when nothing is due (default an hour). */
  idleStepMs?: number;
  /** Answers per gate key before the maintainer gives up on it (default 3). */
  answersPerGate?: number;
  /** Called with one line per tick and per jump of the clock (the bench's verbose mode). */
  trace?: (line: string) => void;
  /**
   * Plays each tick through the shipped tick workflow and action bundle on the sandbox's
   * runner, the agent's CLI run by this harness (arms/loopx/action-tick.ts), instead of in
   * process. One-goal cells with the competent scripted agent and no fault only.
   */
  throughAction?: ActionHarness;
  /**
   * An ablation, as the arm `loopx-without-<it>`: LoopX installed without its budgets
   * (loopx.yml sets none, whatever the cell's owners approved), or without its backoff (a
   * stalled tick's goal waits not at all before the next; stalls are still counted, so
   * replanning and asking a person come as they would), or without its gates (`gates: []`:
   * no merge gate, no path rule; GitHub's own refusal of workflow files stays, as it is not
   * LoopX's), or without its leases (every live tick's lease renewed before any clock moves:
   * arms/loopx/hold-leases.ts), or without its fencing (a result is applied and its push
   * granted whatever became of its tick: arms/loopx/drop-fencing.ts).
   */
  without?: LoopxPart;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RECONCILE_MS = 5 * MINUTE;
const RESTART_DOWN_MS = 10 * MINUTE;
/** Past a wake, so the scheduler's grace for it has run out (stalled-month steps the same). */
const WAKE_MARGIN_MS = 2 * MINUTE;

export function loopxArm(opts: LoopxArmOptions = {}): Arm {
  const idleStep = opts.idleStepMs ?? 60 * MINUTE;
  const answersPerGate = opts.answersPerGate ?? 3;
  const trace = opts.trace ?? (() => {});
  return {
    name: opts.without ? `${ABLATION}${opts.without}` : "loopx",
    pairs: true,
    ...(opts.without ? { ablates: opts.without } : {}),
    async run(ctx: ArmContext): Promise<ArmRun> {
      const { world, cell, skill } = ctx;
      const { sandbox } = world;
      const clock = sandbox.clock;
      const startedAt = clock.now();
      const horizon = startedAt + cell.horizonHours * 3_600_000;
      const run = emptyRun("loopx");
      // The CLI draws from one seed per cell, play-tick from one per tick: only a competent
      // agent, which draws nothing, plays the same either way.
      if (
        opts.throughAction &&
        (cell.fault !== "none" || cell.profile !== "competent" || ctx.agent || cell.partner)
      ) {
        throw new Error(
          `the LoopX arm plays ticks through the action on one-goal cells with the competent scripted agent and no fault only (this cell: ${cell.profile}, fault ${cell.fault}${ctx.agent ? ", a real model" : ""}${cell.partner ? ", two goals" : ""})`,
        );
      }
      // The bench plays each dispatched run's jobs itself: the sandbox only records them.
      sandbox.runner.enabled = false;
      // A person installs LoopX: its config and tick workflow on main, then the App.
      const loopx = await installLoopx({
        world,
        cell,
        without: opts.without,
        throughAction: opts.throughAction,
      });
      let ticks: ActionTicks | null = null;
      const settle = async () => {
        for (let i = 0; i < 2; i++) {
          await sandbox.idle();
          await loopx.settle();
        }
      };
      try {
        // The maintainer files each objective as an issue and labels it, as a user would.
        const maintainer = new RepoRest(sandbox.url, world.repo, world.token("maintainer"));
        const goals = await fileGoals(ctx, loopx, maintainer, settle);
        // Faults strike the first goal; a pair cell injects none.
        const { issue, goalId } = goals[0]!;
        const faults = armLoopxFaults({
          fault: cell.fault,
          sandbox,
          maintainer,
          reviewer: new RepoRest(sandbox.url, world.repo, world.token("reviewer")),
          issue,
          editAt: startedAt + HOUR,
          settle,
          gates: async () => (await loopx.store.loadGoal(goalId))?.gates ?? [],
        });

        const ablated = ablationHooks(opts.without, loopx.store, goals);
        const agent = agentOf(ctx.cell, run, ctx.agent);
        ticks = opts.throughAction
          ? await actionTicks({
              harness: opts.throughAction,
              loopx,
              world,
              skill,
              profile: cell.profile,
              seed: cell.seed,
              goalId,
            })
          : null;
        const persons = goalPeople({
          world,
          store: loopx.store,
          maintainer,
          goals,
          answersPerGate,
        });
        const hoursAt = (at: number) => `+${((at - startedAt) / 3_600_000).toFixed(2)}h`;
        const hours = () => hoursAt(clock.now());
        const outage = actionsOutage(cell, hoursAt);
        const handledRuns = new Set<number>();
        const reruns = personReruns({
          sandbox,
          repo: world.repo,
          rest: maintainer,
          settle: async () => {
            loopx.app.outbox.kick();
            await settle();
          },
        });
        const people = driver(world);
        let tickNo = 0;
        let agentJobs = 0;

        // GitHub starts a dispatched run within seconds, so every run dispatched so far is
        // played before anything else looks at the goal: the scheduler's sweep, or the clock.
        const playDispatched = async () => {
          for (;;) {
            const wf = [...sandbox.store.workflowRuns.values()].find(
              (r) => r.repoId === loopx.repo.id && !handledRuns.has(r.id),
            );
            if (!wf) break;
            handledRuns.add(wf.id);
            const goal = goals.find((g) => wf.inputs.goal === String(g.issue));
            if (!goal) continue;
            if (outage.strikes(clock.now(), tickNo)) {
              trace(`${hours()} run ${wf.id}: failed, GitHub Actions is down`);
              sandbox.updateRun(wf.id, "completed", "failure");
              await settle();
              continue;
            }
            tickNo += 1;
            const report = reportFault(cell.fault, agentJobs);
            const elapse = async (minutes: number) => {
              await ablated.beforeClockMoves();
              const ms = minutes * MINUTE;
              loopx.carryTokens(ms);
              await people.advanceTo(clock.now() + ms);
              await loopx.syncClock();
            };
            const played = ticks
              ? await ticks.play({ runId: wf.id, elapse })
              : await playTick({
                  loopx,
                  world,
                  issue: goal.issue,
                  runId: wf.id,
                  slot: wf.inputs.slot ?? "",
                  agent,
                  skill: goal.skill,
                  profile: cell.profile,
                  ...report.play,
                  elapse,
                  beforeResult: (tickId) => ablated.beforeResult(goal.goalId, tickId),
                });
            trace(
              `${hours()} tick ${tickNo} run ${wf.id}: ${played.route} ${played.todo ?? "-"} ${played.slice ? `agent ${played.slice.todo ?? "plan"} pushed ${played.slice.pushedFiles.length}` : "wait"}`,
            );
            run.jobs.push(...played.jobs);
            if (played.slice) run.slices.push(played.slice);
            if (played.ran) agentJobs += 1;
            reruns.schedule(report, played, wf.id, tickNo);
            run.faults.push(...report.struck(tickNo, played));
            if (played.refused) run.notes.push(`tick ${tickNo}: push refused: ${played.refused}`);
            // The runner completes the runs it played itself.
            if (!ticks) {
              const failed = played.resultRefused || played.reportLost;
              sandbox.updateRun(wf.id, "completed", failed ? "failure" : "success");
            }
            loopx.app.outbox.kick();
            await settle();
          }
        };

        // The App's timers, on the simulated clock: redelivering failed webhooks every five
        // minutes (LOOPX_RECONCILE_INTERVAL_SECONDS' default). The scheduler runs every step.
        let reconciledAt = clock.now();
        let restarted = false;
        const step = async () => {
          await loopx.syncClock();
          if (cell.fault === "app-restarted" && !restarted && clock.now() >= startedAt + HOUR) {
            // A deploy at the first hour: ten minutes with nothing listening, as people act.
            restarted = true;
            run.faults.push(`App restarted at ${hours()}, down ${RESTART_DOWN_MS / MINUTE} min`);
            await loopx.restart(async () => {
              loopx.carryTokens(RESTART_DOWN_MS);
              await people.advanceTo(clock.now() + RESTART_DOWN_MS);
            });
            await loopx.syncClock();
          }
          await faults.act(clock.now(), hours());
          const reran = await reruns.playDue();
          run.jobs.push(...reran.jobs);
          run.faults.push(...reran.lines);
          for (const line of reran.lines) trace(`${hours()} ${line}`);
          if (clock.now() - reconciledAt >= RECONCILE_MS) {
            reconciledAt = clock.now();
            await loopx.app.reconcile();
          }
          await playDispatched();
          await loopx.app.scheduler.tick();
          loopx.app.outbox.kick();
          await settle();
          await playDispatched();
          await world.person.attend();
          await persons.answerGates();
          await persons.pushPatches();
          await settle();
        };

        while (clock.now() < horizon) {
          await step();
          const states = await Promise.all(goals.map((g) => loopx.store.loadGoal(g.goalId)));
          if (states.every((state) => state?.goal.status === "done")) {
            run.stoppedAt = clock.now();
            break;
          }
          const now = clock.now();
          const candidates = [now + idleStep];
          for (const state of states) {
            const wake = state?.goal.nextWakeAt?.getTime() ?? null;
            if (wake !== null) candidates.push(Math.max(wake, now) + WAKE_MARGIN_MS);
          }
          for (const act of world.person.pending()) candidates.push(Math.max(act.dueAt, now));
          for (const at of reruns.dueTimes()) candidates.push(Math.max(at, now));
          const target = Math.min(horizon, ...candidates);
          const jump = Math.max(0, target - now);
          for (const state of states) {
            const wake = state?.goal.nextWakeAt?.getTime() ?? null;
            trace(
              `${hours()} goal ${state?.goal.status} todos ${(state?.todos ?? []).map((t) => `${t.key}:${t.status}`).join(",")} gates ${(state?.gates ?? []).map((g) => `${g.key}:${g.status}:${g.scopes.join("+")}`).join(",")} wake ${wake === null ? "none" : `${((wake - now) / MINUTE).toFixed(0)}m`} jump ${(jump / MINUTE).toFixed(0)}m`,
            );
          }
          await ablated.beforeClockMoves();
          loopx.carryTokens(jump);
          await clock.advance(jump);
          await settle();
        }

        await faults.report(run);
        const finals = await Promise.all(goals.map((g) => loopx.store.loadGoal(g.goalId)));
        outage.report(
          run,
          finals.every((f) => f?.goal.status === "done"),
        );
        run.pullsOpened = await pullsBy(maintainer);
        run.commentsPosted = botComments(
          sandbox,
          world.repo,
          run.pullsOpened,
          goals.map((g) => g.issue),
        );
        for (const [i, goal] of goals.entries()) {
          run.notes.push(`goal #${goal.issue} ${finals[i]?.goal.status ?? "gone"}`);
        }
        run.notes.push(`${tickNo} ticks dispatched`, ...loopx.warnings.slice(0, 20));
      } finally {
        await ticks?.close();
        await loopx.close();
      }
      return run;
    },
  };
}
