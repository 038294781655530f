// A sweep every instance runs on a timer for as long as it serves (the outbox's retention, ended scheduled events,
// orphaned target-users jobs): one run at a time, so a slow run is never overlapped by the next tick; a failure is
// logged and the next tick tries again; the timer never holds the process open. stop() ends the ticks and tells a
// run in progress, through `stopped()`, to finish its chunk and return.
export interface Sweeper {
  stop(): void;
}

export function startSweeper(
  everyMs: number,
  run: (stopped: () => boolean) => Promise<unknown>,
  onError: (error: unknown) => void,
): Sweeper {
  let running = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // Through a promise, so a run that throws before its first await is reported too, not left `running` for good.
    Promise.resolve()
      .then(() => run(() => stopped))
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
