/**
 * The fakes' commands (`deno task cli fake-payu`, `fake-p24`). main.ts loads this module by a
 * URL it builds at run time, so `deno compile` embeds none of fakes/: they are test tools, and
 * import nothing from lib/.
 */

const FAKE_COMMANDS = ["fake-payu", "fake-p24"] as const;

/** Runs the fake `command` with its own flags; resolves with the exit code once it stopped. */
export async function runFakeCommand(command: string, args: string[]): Promise<number> {
  switch (command) {
    case "fake-payu":
      return await (await import("./payu/cli.ts")).runFakePayuCommand(args);
    case "fake-p24":
      return await (await import("./p24/cli.ts")).runFakeP24Command(args);
    default:
      console.error(`Unknown command '${command}'. The fakes are ${FAKE_COMMANDS.join(", ")}.`);
      return 2;
  }
}
