/** Runs `main.ts fake-payu` as a child process and drives it through /__fake. */
import { type FakeProcess, startFakeProcess } from "./fake_process.ts";

/** A running fake-payu process. */
export type FakePayuProcess = FakeProcess;

/** Starts the CLI fake PayU on a free port with extra flags; resolves once it printed its env. */
export function startFakePayuProcess(flags: string[] = []): Promise<FakePayuProcess> {
  return startFakeProcess("fake-payu", flags, "PAYU_SECOND_KEY");
}
