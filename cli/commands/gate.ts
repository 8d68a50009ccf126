// `yoke gate --agent <claude|codex|gemini>`: the hook command each CLI runs before a tool call
// (DESIGN §13). It reads the hook's stdin JSON and prints the CLI's own decision format. During a
// run it asks the running yoke over the private socket named by $YOKE_GATE_SOCKET (yoke journals
// the request and the ruling); with no run it rules itself from the policy and the workspace's
// answers, and hands a hold to the CLI's own prompt. It fails closed: a call it cannot rule on is
// refused. Kept light: the socket path loads nothing but node:net.
import type { Ruling } from '../../config/types.js';
import { GATE_SOCKET_ENV, type GateAnswer } from '../../effects/gate/gate-protocol.js';
import { readHookRequest } from '../../policy/gate/hook-request.js';
import { gateOutput, type GateAgent, type GateDecision } from '../gate-output.js';
import { exchangeLine, socketProblem } from '../gate-socket.js';

/** How long the gate waits for the running yoke: below the 30 s every CLI's hook timeout is set to. */
const ANSWER_TIMEOUT_MS = 25_000;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Ask the running yoke. Rejects on anything but a well-formed answer. */
async function ask(path: string, agent: GateAgent, text: string): Promise<GateAnswer> {
  const answer = JSON.parse(await exchangeLine(path, JSON.stringify({ agent, text }), ANSWER_TIMEOUT_MS)) as GateAnswer;
  if (!['pass', 'hold', 'refuse'].includes(answer.ruling) || typeof answer.message !== 'string') throw new Error('a malformed answer');
  return answer;
}

/** A run's ruling as the CLI's decision: a hold in a run is the CLI's `defer` where it has one. */
function runDecision(ruling: Ruling): GateDecision {
  return ruling === 'pass' ? 'allow' : ruling === 'hold' ? 'defer' : 'deny';
}

/** Run the gate for `agent`; resolves to the exit code (the decision itself is on stdout). */
export async function gateCommand(agent: GateAgent): Promise<number> {
  const text = await readStdin();
  const path = process.env[GATE_SOCKET_ENV];
  if (path !== undefined && path !== '') {
    const problem = socketProblem(path);
    if (problem !== null) return refuse(agent, `yoke gate: the running yoke's socket ${problem}; the call is refused (fail closed).`);
    let answer: GateAnswer;
    try {
      answer = await ask(path, agent, text);
    } catch (error) {
      return refuse(agent, `yoke gate: the running yoke did not answer (${error instanceof Error ? error.message : String(error)}); the call is refused (fail closed).`);
    }
    // The run journals an unreadable request as refused; the person watching the CLI hears why too.
    const read = readHookRequest(text);
    if (!read.ok) process.stderr.write(`yoke gate: ${read.problem}; the call is refused (fail closed).\n`);
    return emit(agent, runDecision(answer.ruling), answer.message, true);
  }
  const { ruleWithoutRun } = await import('../gate-without-run.js');
  const ruled = await ruleWithoutRun(agent, text, process.cwd());
  if (ruled.warning !== null) process.stderr.write(`${ruled.warning}\n`);
  // Without a run a hold is the CLI's own prompt: the person at the keyboard is the operator.
  const decision: GateDecision = ruled.ruling === 'pass' ? 'allow' : ruled.ruling === 'hold' ? 'ask' : 'deny';
  return emit(agent, decision, ruled.message, false);
}

function refuse(agent: GateAgent, message: string): number {
  process.stderr.write(`${message}\n`);
  return emit(agent, 'deny', message.replace(/^yoke gate: /, 'refused: '), true);
}

function emit(agent: GateAgent, decision: GateDecision, message: string, inRun: boolean): number {
  const out = gateOutput(agent, decision, message, inRun);
  if (out.stdout !== '') process.stdout.write(out.stdout);
  if (out.stderr !== '') process.stderr.write(out.stderr);
  return out.exitCode;
}
