/** Runs `main.ts fake-p24` as a child process and drives it through /__fake. */
import { type FakeProcess, startFakeProcess } from "./fake_process.ts";

/** A running fake-p24 process. */
export type FakeP24Process = FakeProcess;

/** Starts the CLI fake Przelewy24 on a free port with extra flags; resolves once it printed its env. */
export function startFakeP24Process(flags: string[] = []): Promise<FakeP24Process> {
  return startFakeProcess("fake-p24", flags, "P24_API_KEY");
}
