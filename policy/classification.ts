// What the classifier found in one tool call: its findings, and the class they add up to.
import type { ToolClass } from '../config/types.js';
import { bySeverity } from './tool-class-severity.js';

/** One thing a call does: its class, the path it touches (when one is known) and why, in words. */
export interface Finding {
  class: ToolClass;
  reason: string;
  path?: string;
  /** a script file (absolute) whose text would decide more, and which the scope does not carry yet */
  wants?: string;
}

/** The classifier's answer for one tool call. */
export interface Classification {
  /** The most severe class among the findings: the class the call is ruled and answered by. */
  class: ToolClass;
  /** Every class found, most severe first (the policy rules on each). */
  classes: ToolClass[];
  /** The paths the call reads or writes (project-relative inside the project, else absolute), first seen first. */
  paths: string[];
  /** Why, one sentence per finding, most severe first. */
  reasons: string[];
  /** Script files (absolute) the call runs whose text the scope does not carry: the gate reads them and classifies again. */
  wants?: string[];
}

/** Adds findings up into a classification; no findings at all is a `read` (the call does nothing). */
export function summarizeFindings(findings: readonly Finding[]): Classification {
  const sorted = [...findings].sort((a, b) => bySeverity(a.class, b.class));
  const classes = [...new Set(sorted.map((finding) => finding.class))];
  const paths = [...new Set(findings.flatMap((finding) => (finding.path === undefined ? [] : [finding.path])))];
  const reasons = [...new Set(sorted.map((finding) => finding.reason))];
  const wants = [...new Set(findings.flatMap((finding) => (finding.wants === undefined ? [] : [finding.wants])))];
  return {
    class: classes[0] ?? 'read', classes: classes.length > 0 ? classes : ['read'], paths, reasons: reasons.length > 0 ? reasons : ['the call has no effect yoke can see'],
    ...(wants.length > 0 ? { wants } : {}),
  };
}
