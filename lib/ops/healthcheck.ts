/** How long one readiness request may take: an init system should not wait on a hung server. */
const ATTEMPT_TIMEOUT_MS = 3_000;

/** One readiness probe's outcome. */
export interface HealthResult {
  ready: boolean;
  detail: string;
}

/** Asks `{url}/readyz` once. */
export async function probeReadiness(url: string): Promise<HealthResult> {
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
    return { ready: false, detail: `${url}/readyz did not answer (${(error as Error).message}).` };
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
