// The shipped tool policy (DESIGN §13): the ruling for a class no `tool` row and no answer decides.
import type { Ruling, ToolClass } from '../../config/types.js';

/** read, edit, exec pass; network is held for the operator; protected, secret, destructive are refused. */
export const SHIPPED_TABLE: { readonly [C in ToolClass]: Ruling } = {
  read: 'pass',
  edit: 'pass',
  exec: 'pass',
  network: 'hold',
  protected: 'refuse',
  secret: 'refuse',
  destructive: 'refuse',
};

/** How strict a ruling is: a call with several classes gets the strictest of their rulings. */
export const RULING_STRICTNESS: { readonly [R in Ruling]: number } = { pass: 0, hold: 1, refuse: 2 };
