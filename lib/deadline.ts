/** Thrown when a call outlives its deadline; its outcome is unknown. */
class DeadlineExceeded extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms.`);
    this.name = "DeadlineExceeded";
  }
}

/** Resolves like `promise`, or rejects with `DeadlineExceeded` after `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
