// The projects whose files share one worker process and module graph (`isolate: false`, decisions 1880 and 1943)
// run this before each file: a file that leaves process-wide state behind fails, naming what it left, instead of
// changing what the files after it see (and so making an outcome depend on the order files run in).
import { afterAll, vi } from 'vitest';
import { leftBehind, snapshot } from './process-state.js';

// The process-wide dispatcher is made by whichever undici sends first. Node's own fetch must make it: the npm
// undici (7) is newer than discord.js's (6), whose multipart bodies its dispatcher cannot send. Isolated, a file
// always began with none; sharing a worker, a file must not inherit one another file's first request chose. One
// refused connection (nothing listens on port 1) makes Node's default before the file runs.
await fetch('http://127.0.0.1:1/').catch(() => undefined);

const before = snapshot();

afterAll(() => {
  const left = leftBehind(before, snapshot(), vi.isFakeTimers());
  if (left.length > 0) {
    throw new Error(
      `this file shares its worker with other files and left process-wide state behind: ${left.join('; ')}. ` +
        'Undo it in afterAll, or list the file among the isolated ones in vitest.config.ts.',
    );
  }
});
