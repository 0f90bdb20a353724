// A call path read from stack traces: the project's frames of each stack (outermost first) mapped to the folders
// of the house (docs/development.md), and the walk those stacks make one after another.
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The run's transpiled copy of src/ and commands/ (test/support/bot-js.ts) stands in for the sources.
const TRANSPILED = /\/node_modules\/\.cache\/desk-bot-js-[^/]+\//;
const FRAME = /^\s*at (?:async )?(?:(.+?) \()?(?:file:\/\/)?([^()]+?):\d+:\d+\)?$/;

/** One frame of the project: its file (relative to the repository, `.ts`), its function and its folder. */
export interface Stop {
  file: string;
  fn: string;
  folder: string;
}

/** A step of the walk: a call into a frame, or a return to a frame still on the stack. */
export interface Step {
  move: 'call' | 'return';
  stop: Stop;
}

/**
 * The folder a file lives in, as the house names them: src/bot's folders (`src/bot/betting/handlers`, `src/bot/betting`), the library as one
 * (`src/gateway`, its internal/ being its own business), commands/, and each other part of src/.
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'commands') return 'commands';
  if (parts[1] === 'bot') return parts.slice(0, -1).join('/');
  return parts.slice(0, 2).join('/');
}

function stopOf(line: string): Stop | undefined {
  const m = FRAME.exec(line);
  if (!m) return undefined;
  const path = m[2] ?? '';
  const copy = TRANSPILED.exec(path);
  const rel = copy ? path.slice(copy.index + copy[0].length) : path.startsWith(ROOT) ? path.slice(ROOT.length) : '';
  if (rel.includes('node_modules/') || !/^(src|commands)\//.test(rel)) return undefined;
  const file = rel.replace(/\.js$/, '.ts');
  const fn = (m[1] ?? '(anonymous)').replace(/ \[as [^\]]+\]$/, '').replace(/^Object\./, '');
  return { file, fn, folder: folderOf(file) };
}

/** The project's frames of an `Error().stack`, outermost first. */
export function stopsOf(stack: string): Stop[] {
  return stack
    .split('\n')
    .map(stopOf)
    .filter((s): s is Stop => s !== undefined)
    .reverse();
}

const same = (a: Stop, b: Stop) => a.file === b.file && a.fn === b.fn;

/**
 * The walk a series of stacks makes, in the order they were taken: from one stack to the next it returns to the
 * frame they share, then calls down to the new stack's innermost frame.
 */
export function walkOf(stacks: Stop[][]): Step[] {
  const steps: Step[] = [];
  let on: Stop[] = [];
  for (const stack of stacks) {
    let shared = 0;
    while (shared < on.length && shared < stack.length && same(on[shared]!, stack[shared]!)) shared++;
    if (shared < on.length && shared > 0) steps.push({ move: 'return', stop: on[shared - 1]! });
    for (const stop of stack.slice(shared)) steps.push({ move: 'call', stop });
    on = stack;
  }
  return steps;
}

/**
 * The steps that enter a folder the walk had already left, consecutive steps in one folder counting once; `allowed`
 * names the one step that may (a return the caller recognises).
 */
export function reentries(steps: Step[], allowed?: Step): Step[] {
  const left = new Set<string>();
  const found: Step[] = [];
  let here: string | undefined;
  for (const step of steps) {
    const { folder } = step.stop;
    if (folder === here) continue;
    if (left.has(folder) && step !== allowed) found.push(step);
    if (here !== undefined) left.add(here);
    here = folder;
  }
  return found;
}

/** The walk as one line per step (file:function), a return marked ↩ and any step named in `marks` flagged. */
export function traceText(steps: Step[], marks: Map<Step, string> = new Map()): string {
  return steps
    .map((s) => {
      const mark = marks.get(s);
      return `${s.move === 'return' ? '↩ ' : '→ '}${s.stop.file}:${s.stop.fn}${mark ? `   <- ${mark}` : ''}`;
    })
    .join('\n');
}
