/** How long one readiness request may take: an init system should not wait on a hung server. */
const ATTEMPT_TIMEOUT_MS = 3_000;

/** One readiness probe's outcome. */
interface HealthResult {
  ready: boolean;
  detail: string;
}

/** Asks `{url}/readyz` once. */
async function probeReadiness(url: string): Promise<HealthResult> {
  try {
    const response = await fetch(`${url}/readyz`, {
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      redirect: "manual",
    });
    const body = await response.text();
    if (response.status === 200) return { ready: true, detail: `${url} is ready.` };
    return {
      ready: false,
      detail: `${url}/readyz answered ${response.status}: ${body.slice(0, 200)}`,
    };
  } catch (error) {
    return { ready: false, detail: `${url}/readyz did not answer (${networkError(error)}).` };
  }
}

/** Probes until ready or until `waitMs` has passed (0: once). */
export async function waitForReadiness(url: string, waitMs: number): Promise<HealthResult> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await probeReadiness(url);
    if (result.ready || Date.now() >= deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Why a request failed, in words: fetch's own message says only "fetch failed". */
export function networkError(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const message = cause instanceof Error ? cause.message : (error as Error).message;
  return message.replace(/^error sending request for url \([^)]*\): /, "");
}
