/**
 * CPU seconds (user and system) process `pid` has used so far, from Linux's `/proc/<pid>/stat`
 * (read through `cat`, as reading /proc directly takes --allow-all).
 */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await new Deno.Command("cat", { args: [`/proc/${pid}/stat`] }).output();
  const fields = new TextDecoder().decode(stat.stdout).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
