// XState's pure `transition()` for a long fold, without its per-call actor.
//
// `transition(machine, snapshot, event)` builds a throwaway actor for every call, and building an
// actor computes the machine's initial snapshot (our machines derive their context from the run's
// input, so without one that computation throws and is caught inside XState). Folding 200k records
// paid that 100k times. A stepper builds the inert actor scope once, from the run's journaled input,
// and hands it to `machine.transition`/`machine.microstep` — exactly what `transition()` does, minus
// the rebuild. The scope's action executor only collects actions: nothing is ever executed.
//
// Sharing one scope is sound because our machines never spawn or invoke actors (no `systemId`
// registrations, the only per-system state) and the collected actions are handed back per call.
import { createActor, type AnyMachineSnapshot, type AnyStateMachine, type ExecutableActionObject } from 'xstate';

type MachineScope = Parameters<AnyStateMachine['transition']>[2];

/** Pure transitions of one machine, for one run's input. */
export class MachineStepper {
  private collected: ExecutableActionObject[] = [];
  private readonly scope: MachineScope;

  constructor(readonly machine: AnyStateMachine, input: unknown) {
    const self = createActor(machine, { input });
    this.scope = {
      self,
      id: '',
      sessionId: '',
      logger: () => undefined,
      defer: () => undefined,
      emit: () => undefined,
      system: self.system,
      stopChild: () => undefined,
      actionExecutor: (action) => void this.collected.push(action),
    };
  }

  /** Like XState's `initialTransition(machine, input)`: the first snapshot and the actions it would run. */
  initial(input: unknown): [AnyMachineSnapshot, ExecutableActionObject[]] {
    this.collected = [];
    const snapshot = this.machine.getInitialSnapshot(this.scope, input) as AnyMachineSnapshot;
    return [snapshot, this.collected];
  }

  /** Like XState's `transition(machine, snapshot, event)`: the next snapshot and the actions it would run. */
  step(snapshot: AnyMachineSnapshot, event: { type: string }): [AnyMachineSnapshot, ExecutableActionObject[]] {
    this.collected = [];
    const next = this.machine.transition(snapshot, event, this.scope) as AnyMachineSnapshot;
    return [next, this.collected];
  }

  /** A snapshot from `machine.getPersistedSnapshot` (a checkpoint), live again. */
  restore(persisted: unknown): AnyMachineSnapshot {
    return this.machine.restoreSnapshot(persisted as Parameters<AnyStateMachine['restoreSnapshot']>[0], this.scope) as AnyMachineSnapshot;
  }

  /** Like XState's `getMicrosteps(machine, snapshot, event)`, snapshots only (actions are dropped). */
  microsteps(snapshot: AnyMachineSnapshot, event: { type: string }): AnyMachineSnapshot[] {
    this.collected = [];
    const steps = this.machine.microstep(snapshot, event, this.scope) as AnyMachineSnapshot[];
    this.collected = [];
    return steps;
  }
}
