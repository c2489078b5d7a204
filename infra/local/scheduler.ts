import type { Schedule } from '../../shared/api/background.ts';
import { backgroundSettings } from '../../shared/api/function-settings.ts';
import { type FunctionHost, outcomeError } from './function-host.ts';

/** Milliseconds until the next `HH:MM` in a timezone. */
export function msUntilDaily(hhmm: string, timeZone: string, now = new Date()): number {
  const [h, m] = hhmm.split(':').map(Number);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const nowSec = Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  let delta = h * 3600 + m * 60 - nowSec;
  if (delta <= 0) delta += 24 * 3600;
  return delta * 1000;
}

/** Seconds between local runs: the schedule's local period when it has one (docs/deployment.md). */
export const localPeriodSeconds = (s: Schedule): number | undefined => s.localEverySeconds ?? s.everySeconds;

/** Plays EventBridge: runs each scheduled handler on its rate or daily time, with the same event shape. */
export class LocalScheduler {
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly host: FunctionHost,
    private readonly schedules: Schedule[],
    private readonly timeZone: string,
    private readonly log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    for (const s of this.schedules) {
      const fn = backgroundSettings(s);
      // A run still going when the next tick comes is not started again (runs of one schedule could
      // pile up on a loaded machine at a one-second period); the handlers are safe to overlap anyway.
      let running: Promise<unknown> | null = null;
      const run = () => {
        running ??= this.host
          .invoke(fn, {
            version: '0',
            id: crypto.randomUUID(),
            'detail-type': 'Scheduled Event',
            source: 'aws.scheduler',
            time: new Date().toISOString(),
            detail: {},
            resources: [`local:schedule/${s.name}`],
          })
          .then((outcome) => {
            if (outcome.status !== 'ok') this.log(`schedule ${s.name} failed: ${outcomeError(outcome).message}`);
          })
          .finally(() => {
            running = null;
          });
        return running;
      };
      const every = localPeriodSeconds(s);
      if (every) this.timers.push(setInterval(run, every * 1000));
      if (s.dailyAt) {
        const arm = () => {
          this.timers.push(
            setTimeout(
              () => {
                void run();
                arm();
              },
              msUntilDaily(s.dailyAt!, this.timeZone),
            ),
          );
        };
        arm();
      }
    }
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
  }
}
