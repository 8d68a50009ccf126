// Where a ruling came from: the shipped table, a `tool` row of yoke.conf, or an operator's answer.
import type { AnswerScope } from './tool-answer.js';

/** The source a ruling record names, so replay and the operator can tell why a call ran. */
export type RulingSource =
  | { kind: 'table' }
  | { kind: 'conf'; line: number }
  | { kind: 'answer'; id: string; scope: AnswerScope };
