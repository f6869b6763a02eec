/**
 * The soak's process supervisor: one Hark (`node src/main.ts`, with its embedded PostgreSQL) on one data
 * directory and one port, stopped at random and started again on the same data, one run after the other
 * (never two at once). A stop is either a SIGKILL to the whole process group (Hark and PostgreSQL, as a
 * power cut) or a SIGTERM to Hark alone (as a deploy), which it must obey within its stop timeout.
 * Every stop is logged with its time, so a callback answered twice can be told from one re-sent because
 * a stop cut its try.
 */
import {
  type Running,
  running,
  START_SECONDS,
  STOP_SECONDS,
  startMain,
} from "../../test/support/service-process.ts";

export type StopSignal = "SIGKILL" | "SIGTERM";

export interface Stop {
  at: number;
  signal: StopSignal;
  /** How the run ended: its exit code or signal, as Node reports it. */
  exit: string;
}

export interface Supervisor {
  /** The API's base URL while a run is up, else undefined. */
  address(): string | undefined;
  stops: Stop[];
  /** Starts Hark; resolves once it reports running. */
  start(): Promise<void>;
  /** Stops the current run with `signal`; resolves once it has exited. */
  stop(signal: StopSignal): Promise<void>;
  /** Output of every run that did not start or stop as it should. */
  troubles: string[];
  /** Everything each run wrote (stdout and stderr), in start order. */
  outputs(): string[];
  /** SIGKILL to the current run at once, synchronously: for an exit hook. */
  killNow(): void;
}

export function supervise(env: Record<string, string>, stopTimeoutSeconds: number): Supervisor {
  let current: Running | undefined;
  const runs: Running[] = [];
  let address: string | undefined;
  const stops: Stop[] = [];
  const troubles: string[] = [];
  return {
    address: () => address,
    outputs: () => runs.map((run) => run.output()),
    stops,
    troubles,
    killNow() {
      const pid = current?.child.pid;
      if (pid !== undefined && current?.child.exitCode === null && current.child.signalCode === null)
        process.kill(-pid, "SIGKILL");
    },
    async start() {
      current = startMain(env);
      runs.push(current);
      try {
        address = await running(current);
      } catch (error) {
        troubles.push(`a start failed within ${START_SECONDS} s: ${current.output().slice(-4000)}`);
        throw error;
      }
    },
    async stop(signal) {
      const hark = current;
      if (!hark) throw new Error("no Hark runs");
      address = undefined;
      const pid = hark.child.pid as number;
      const at = Date.now();
      if (signal === "SIGKILL") process.kill(-pid, "SIGKILL");
      else hark.child.kill("SIGTERM");
      let ended: Awaited<ReturnType<Running["exit"]>>;
      try {
        ended = await hark.exit(stopTimeoutSeconds + STOP_SECONDS);
      } catch {
        troubles.push(`pid ${pid} did not exit on ${signal}; killed: ${hark.output().slice(-4000)}`);
        process.kill(-pid, "SIGKILL");
        ended = await hark.exit(STOP_SECONDS);
      }
      if (signal === "SIGTERM" && ended.code !== 0)
        troubles.push(
          `pid ${pid} exited ${ended.code ?? ended.signal} on SIGTERM: ${hark.stderr().slice(-4000)}`,
        );
      stops.push({ at, signal, exit: String(ended.code ?? ended.signal) });
      current = undefined;
    },
  };
}
